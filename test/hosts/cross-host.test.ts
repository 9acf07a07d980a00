/**
 * The same operation through MCP, HTTP, OpenClaw and the CLI: the same result, the same limits,
 * the same error codes; and, per host and per operation, a caller never sees another caller's
 * memories or conversations (an agent; no agent; no agent with `--scope project:p1`).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpName } from '../../src/core/ops/index.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { tempHome } from '../support/run-cli.js';
import {
  cliDriver,
  httpDriver,
  mcpDriver,
  openClawDriver,
  type CallerSpec,
  type Driver,
  type Input,
  type Outcome,
} from './cross-host-drivers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX_CHARS = 25_000;
const MAX_LIMIT = 30;
const CONFIG = {
  embedder: { provider: 'none' },
  write: { maxChars: MAX_CHARS },
  // No access boost: a recall through one host must not change the scores the next host sees.
  recall: { maxLimit: MAX_LIMIT, scoring: { accessWeight: 0 } },
  scopes: { agentGrants: { coder: ['project:p1'] } },
};
const CODER: CallerSpec = { label: 'agent coder', agent: 'coder' };
const NOBODY: CallerSpec = { label: 'no agent' };
const PROJECT: CallerSpec = { label: 'no agent, --scope project:p1', scopes: ['project:p1'] };
const STRANGER: CallerSpec = { label: 'agent stranger', agent: 'stranger' };

/**
 * Hosts for a caller: OpenClaw always names an agent, so it serves the agent callers only. The
 * stranger (an agent without grants) is OpenClaw's case; the CLI, slow to start, skips it.
 */
async function driversFor(strata: Strata, home: string, spec: CallerSpec): Promise<Driver[]> {
  const drivers = [await mcpDriver(strata, spec), await httpDriver(strata, spec)];
  if (spec !== STRANGER) drivers.push(cliDriver(home, spec));
  if (spec.agent) drivers.push(await openClawDriver(strata, spec));
  return drivers;
}

/** Calls an operation on every host that offers it (the CLI, a few at a time: child processes are slow). */
async function everywhere(drivers: Driver[], op: OpName, input: Input): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>();
  await Promise.all(drivers.filter((d) => d.supports(op, input)).map(async (d) => out.set(d.host, await d.call(op, input))));
  return out;
}

/** Maps with at most `n` calls in flight (CLI child processes are heavy on a shared machine). */
async function inParallel<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return out;
}

const idOf = (x: Json): string => x.record?.id ?? x.id;
const round = (n: number) => Number(n.toFixed(3));
/** What must agree between hosts, from either the full result (HTTP, CLI) or the compact one (MCP, OpenClaw). */
const DIGEST: Partial<Record<OpName, (v: Json) => unknown>> = {
  recall: (v) => v.results.map((x: Json) => [idOf(x), round(x.score)]),
  list: (v) => ({ ids: v.memories.map(idOf), total: v.total }),
  stats: (v) => ({ memories: v.memories, byScope: v.byScope, byCategory: v.byCategory }),
  conversations: (v) => v.results.map((h: Json) => h.record.content),
  context: (v) => (typeof v === 'string' ? v : v.text),
  history: (v) => v.entries.map((e: Json) => [e.action, e.actor]),
  provenance: (v) => ({ messages: v.messages.map((m: Json) => m.id), missing: v.missing, withheld: Boolean(v.withheld) }),
};

function expectSame(results: Map<string, Outcome>, op: OpName, hosts: number): unknown {
  expect(results.size, `${op}: hosts that ran it`).toBe(hosts);
  const digests = [...results].map(([host, r]) => {
    expect(r.ok, `${op} on ${host}: ${JSON.stringify(r)}`).toBe(true);
    return [host, DIGEST[op]!((r as { value: Json }).value)] as const;
  });
  for (const [host, d] of digests.slice(1)) expect(d, `${op}: ${host} vs ${digests[0]![0]}`).toEqual(digests[0]![1]);
  return digests[0]![1];
}

function expectCode(results: Map<string, Outcome>, code: string, what: string): void {
  expect(results.size, what).toBeGreaterThan(0);
  for (const [host, r] of results) expect(r.ok ? 'ok' : r.code, `${what} on ${host}`).toBe(code);
}

describe('one operation, every host', () => {
  let home: string;
  let strata: Strata;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    home = await tempHome(CONFIG);
    strata = await Strata.open({ home });
    const add = async (key: string, text: string, scope: string, source?: Json) =>
      (ids[key] = (await strata.remember({ text, scope, actor: 'cli', ...(source ? { source: source as never } : {}) })).id);
    await add('global', 'GLOBALMARK the office closes at six', 'global');
    await add('coder', 'CODERMARK the coder prefers tabs over spaces', 'agent:coder');
    await add('other', 'OTHERMARK the staging password rotates monthly', 'agent:other');
    await add('p1', 'P1MARK project p1 ships on Fridays', 'project:p1');
    await strata.update({ id: ids.coder!, text: 'CODERMARK the coder prefers tabs over spaces, always', actor: 'cli' });
    await strata.update({ id: ids.other!, text: 'OTHERMARK the staging password rotates weekly', actor: 'cli' });
    // Shared in global, but learned in another agent's conversation: the memory is visible, the conversation is not.
    await add('learned', 'GLOBALMARK deploys freeze on Fridays', 'global', {
      kind: 'distill',
      agentId: 'other',
      sessionKey: 'agent:other:main',
      messageIds: ['o1'],
    });
    await add('coderLearned', 'CODERMARK the retry budget is three', 'agent:coder', {
      kind: 'distill',
      agentId: 'coder',
      sessionKey: 'agent:coder:main',
      messageIds: ['c1'],
    });
    const base = {
      sessionId: 's1',
      host: 'jsonl' as const,
      role: 'user' as const,
      timestamp: Date.parse('2026-11-20T10:00:00Z'),
      recordedAt: '2026-11-20T10:00:00.000Z',
    };
    const records: L0Record[] = [
      { ...base, agentId: 'coder', sessionKey: 'agent:coder:main', id: 'c1', content: 'CODERCONVO please set the retry budget to three' },
      {
        ...base,
        agentId: 'other',
        sessionKey: 'agent:other:main',
        id: 'o1',
        content: 'OTHERCONVO the billing secret is hunter2, freeze deploys on Fridays',
      },
    ];
    await strata.appendConversation({ records });
  });

  afterAll(async () => {
    await strata?.close();
    await rm(home, { recursive: true, force: true });
  });

  describe('the same result and the same limits', () => {
    let drivers: Driver[];
    beforeAll(async () => {
      drivers = await driversFor(strata, home, CODER);
    });
    afterAll(async () => {
      await Promise.all(drivers.map((d) => d.close()));
    });

    it('recall, list, stats, conversation search and context agree on every host that offers them', async () => {
      const recalled = expectSame(
        await everywhere(drivers, 'recall', { query: 'CODERMARK GLOBALMARK P1MARK tabs', limit: 3 }),
        'recall',
        4,
      ) as unknown[];
      expect(recalled).toHaveLength(3);
      expectSame(await everywhere(drivers, 'list', {}), 'list', 4);
      expect(expectSame(await everywhere(drivers, 'stats', {}), 'stats', 4)).toMatchObject({
        memories: 5,
        byScope: { global: 2, 'agent:coder': 2, 'project:p1': 1 },
      });
      expect(
        expectSame(await everywhere(drivers, 'conversations', { query: 'retry budget CODERCONVO OTHERCONVO' }), 'conversations', 3),
      ).toEqual(['CODERCONVO please set the retry budget to three']);
      expect(expectSame(await everywhere(drivers, 'context', { query: 'CODERMARK tabs' }), 'context', 3)).toMatch(/CODERMARK/);
      expect(expectSame(await everywhere(drivers, 'history', { id: ids.coder! }), 'history', 2)).toEqual([
        ['create', 'cli'],
        ['update', 'cli'],
      ]);
      expect(expectSame(await everywhere(drivers, 'provenance', { id: ids.coderLearned! }), 'provenance', 2)).toEqual({
        messages: ['c1'],
        missing: [],
        withheld: false,
      });
      expect(expectSame(await everywhere(drivers, 'provenance', { id: ids.learned! }), 'provenance', 2)).toEqual({
        messages: [],
        missing: ['o1'],
        withheld: true,
      });
    }, 300_000);

    it('limits come from the config and are identical everywhere: memory text (write.maxChars), recall limit (recall.maxLimit)', async () => {
      expectCode(
        await everywhere(drivers, 'remember', { text: 'y'.repeat(MAX_CHARS + 1) }),
        'INVALID_ARGUMENT',
        'a text one over write.maxChars',
      );
      expectCode(
        await everywhere(drivers, 'recall', { query: 'CODERMARK', limit: MAX_LIMIT + 1 }),
        'INVALID_ARGUMENT',
        'a recall limit one over recall.maxLimit',
      );
      const atLimit = await everywhere(drivers, 'recall', { query: 'CODERMARK', limit: MAX_LIMIT });
      for (const [host, r] of atLimit) expect(r.ok, `recall limit ${MAX_LIMIT} on ${host}`).toBe(true);
      // Above the old host caps (20,000 characters) but within write.maxChars: stored once, a duplicate everywhere else.
      const long = 'z'.repeat(21_000);
      const stored: string[] = [];
      for (const d of drivers) {
        const r = await d.call('remember', { text: long });
        expect(r.ok, `${MAX_CHARS}-char limit on ${d.host}: ${JSON.stringify(r)}`).toBe(true);
        stored.push((r as { value: Json }).value.action);
      }
      expect(stored).toEqual(['created', 'duplicate', 'duplicate', 'duplicate']);
      // What a model is told is what is enforced.
      const told = drivers.filter((d) => d.advertised);
      expect(told.map((d) => d.host).sort()).toEqual(['mcp', 'openclaw']);
      for (const d of told) {
        expect((await d.advertised!('remember')).properties.text.maxLength, d.host).toBe(MAX_CHARS);
        expect((await d.advertised!('recall')).properties.limit.maximum, d.host).toBe(MAX_LIMIT);
      }
    }, 300_000);

    it('errors carry the same code on every host', async () => {
      expectCode(await everywhere(drivers, 'update', { id: ids.other!, importance: 0.1 }), 'NOT_FOUND', "updating another agent's memory");
      expectCode(
        await everywhere(drivers, 'update', { id: ids.coder!, scope: 'agent:other' }),
        'FORBIDDEN_SCOPE',
        'moving a memory to a scope the caller does not hold',
      );
      expectCode(await everywhere(drivers, 'update', { id: ids.coder!, scope: "x' OR '1'='1" }), 'INVALID_SCOPE', 'a malformed scope');
      expectCode(await everywhere(drivers, 'recall', { query: 'CODERMARK', limit: 0 }), 'INVALID_ARGUMENT', 'limit 0');
    }, 300_000);
  });

  describe('a caller never sees another caller’s memories or conversations', () => {
    const NEVER: Record<string, string[]> = {
      [CODER.label]: ['OTHERMARK', 'OTHERCONVO', 'hunter2'],
      [NOBODY.label]: ['OTHERMARK', 'OTHERCONVO', 'hunter2', 'CODERMARK', 'CODERCONVO', 'P1MARK'],
      [PROJECT.label]: ['OTHERMARK', 'OTHERCONVO', 'hunter2', 'CODERMARK', 'CODERCONVO', 'GLOBALMARK'],
      [STRANGER.label]: ['OTHERMARK', 'OTHERCONVO', 'hunter2', 'CODERMARK', 'CODERCONVO', 'P1MARK'],
    };
    const ALL = 'GLOBALMARK CODERMARK OTHERMARK P1MARK CODERCONVO OTHERCONVO password retry office';
    /** Reads that could show anything, and changes aimed at another agent's memory. */
    const probes = (): Array<[OpName, Input, string?]> => [
      ['recall', { query: ALL, limit: MAX_LIMIT }],
      ['explain', { query: ALL }],
      ['list', {}],
      ['stats', {}],
      ['export', {}],
      ['context', { query: ALL }],
      ['context', {}],
      ['conversations', { query: ALL }],
      ['get', { id: ids.other! }, 'NOT_FOUND'],
      ['history', { id: ids.other! }, 'NOT_FOUND'],
      ['provenance', { id: ids.other! }, 'NOT_FOUND'],
      ['update', { id: ids.other!, text: 'hijacked' }, 'NOT_FOUND'],
      ['revert', { id: ids.other! }, 'NOT_FOUND'],
      ['forget', { ids: [ids.other!] }, 'NOT_FOUND'],
      ['forget', { query: 'OTHERMARK staging password', confirm: true }],
      ['recall', { query: ALL, scope: 'agent:other' }, 'FORBIDDEN_SCOPE'],
      ['list', { scope: 'agent:other' }, 'FORBIDDEN_SCOPE'],
    ];

    for (const spec of [CODER, NOBODY, PROJECT, STRANGER]) {
      it(`${spec.label}: every read, on every host, shows none of it; every change to it fails`, async () => {
        const drivers = await driversFor(strata, home, spec);
        let calls = 0;
        try {
          // Probes change nothing (every change is refused), so they may run side by side.
          const outcomes = await inParallel(probes(), 4, async ([op, input, code]) => ({
            op,
            input,
            code,
            results: await everywhere(drivers, op, input),
          }));
          for (const { op, input, code, results } of outcomes) {
            for (const [host, r] of results) {
              calls++;
              const where = `${op} ${JSON.stringify(input).slice(0, 60)} on ${host} as ${spec.label}`;
              if (code) expect(r.ok ? 'ok' : r.code, where).toBe(code);
              else expect(r.ok, `${where}: ${JSON.stringify(r)}`).toBe(true);
              // The query is echoed back (recall, explain): what it names is not something seen.
              const seen = JSON.stringify(r).split(JSON.stringify(ALL).slice(1, -1)).join('');
              for (const marker of NEVER[spec.label]!) expect(seen, where).not.toContain(marker);
              if (op === 'stats' && r.ok) expect(JSON.stringify(r.value), where).not.toContain('agent:other');
            }
          }
        } finally {
          await Promise.all(drivers.map((d) => d.close()));
        }
        expect(calls).toBeGreaterThanOrEqual(probes().length * 2);
        // The other agent's memory is exactly as it was.
        const [other] = await strata.get({ ids: [ids.other!] });
        expect(other?.text).toBe('OTHERMARK the staging password rotates weekly');
        expect(await strata.count({ scopes: ['agent:other'] })).toBe(1);
      }, 600_000);
    }
  });
});
