/**
 * Hostile agent ids never fall back to `global`: distillation of old L0 data skips them (reported),
 * live capture and ingest refuse them, the L0 store boundary refuses them. Every attempt is
 * counted; the test ends with the number of leaks (memories outside `agent:<valid id>`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/run.js';
import { ingest } from '../../src/capture/ingest.js';
import { l0Of } from '../capture/helpers.js';
import { assertAgentId, isValidAgentId } from '../../src/core/scope.js';
import { runCli } from '../support/run-cli.js';
import { ctxOf, msg, openStrata, removeDir, tempDir, writeL0 } from '../distill/helpers.js';

export const HOSTILE_AGENT_IDS = [
  '_hidden',
  'björn',
  'ops team',
  "x' OR '1'='1",
  '../etc',
  'a/../../b',
  '',
  ' main',
  'main\n',
  '.hidden',
  '-rf',
  'x'.repeat(129),
  'agent\u0000id',
  '日本',
];

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await removeDir(dirs.pop()!);
});
async function home(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return dir;
}

describe('scopes never fall back', () => {
  it('rejects every hostile agent id and accepts real ones', () => {
    for (const id of HOSTILE_AGENT_IDS) {
      expect(isValidAgentId(id), JSON.stringify(id)).toBe(false);
      expect(() => assertAgentId(id)).toThrow(/Invalid agent id/);
    }
    for (const id of ['main', 'work-2', 'acompact-e1f845', 'claude-code', 'user@example.com', 'team/ops'])
      expect(isValidAgentId(id)).toBe(true);
  });

  it('distillation files no memory of an invalid agent under global (old L0 data)', async () => {
    const dir = await home();
    const hostile = ['_hidden', 'björn', 'ops team'];
    await writeL0(dir, [
      ...hostile.map((agent, i) =>
        msg({
          agent,
          session: `s${i}`,
          role: 'user',
          content: `Remember that my deploy target is cluster-${i}. I prefer tabs.`,
          at: '2026-01-05T10:00:00.000Z',
        }),
      ),
      msg({
        agent: 'main',
        session: 'ok',
        role: 'user',
        content: 'Remember that I prefer dark mode in every editor.',
        at: '2026-01-05T10:00:00.000Z',
      }),
    ]);
    const strata = await openStrata(dir);
    try {
      for (const ruleScope of ['agent', 'agent'] as const) {
        const report = await runDistill({ ctx: ctxOf(strata), home: dir, ruleScope });
        if (report.messages.read > 0) {
          expect(report.errors.map((e) => e.agentId).sort()).toEqual([...hostile].sort());
          expect(report.errors.every((e) => e.code === 'INVALID_AGENT_ID')).toBe(true);
        }
      }
      const global = await strata.list({ scopes: ['global'] });
      expect(global).toEqual([]);
      const all = await strata.list({ scopes: ['global', 'agent:main'] });
      expect(all.map((m) => m.scope)).toEqual(all.map(() => 'agent:main'));
      expect(all.length).toBeGreaterThan(0);
    } finally {
      await strata.close();
    }
  });

  it('live capture, ingest and the L0 boundary refuse hostile ids', async () => {
    const dir = await home();
    let attempts = 0;
    let accepted = 0;
    const strata = await openStrata(dir);
    try {
      for (const agentId of HOSTILE_AGENT_IDS) {
        attempts += 4;
        await strata.capture({ agentId, sessionKey: 's', messages: [{ role: 'user', content: 'hello there' }] }).then(
          () => accepted++,
          (e: Error) => expect(e.message).toMatch(/agent/i),
        );
        await strata.ingest({ agentId, sources: [] }).then(
          () => accepted++,
          (e: Error) => expect(e.message).toMatch(/Invalid agent id/),
        );
        // The L0 log as Strata.open wires it: every append path goes through this boundary.
        const record = { ...msg({ agent: 'main', session: 's', role: 'user', content: 'hi', at: '2026-01-05T10:00:00.000Z' }), agentId };
        await strata.l0.append({ records: [record] }).then(
          () => accepted++,
          (e: Error) => expect(e.message).toMatch(/agent/i),
        );
        await strata.appendConversation({ records: [record] }).then(
          () => accepted++,
          (e: Error) => expect(e.message).toMatch(/agent/i),
        );
      }
      expect(await strata.sessions()).toEqual([]);
    } finally {
      await strata.close();
    }
    console.log(`hostile agent-id attempts: ${attempts}, accepted: ${accepted}`);
    expect(accepted).toBe(0);
  });

  it('ingest skips (and reports) transcript folders of invalid agents instead of filing them elsewhere', async () => {
    const dir = await home();
    const root = join(dir, 'openclaw');
    for (const agent of ['main', 'ops team']) {
      await mkdir(join(root, 'agents', agent, 'sessions'), { recursive: true });
      const line = JSON.stringify({
        type: 'message',
        id: `${agent}-1`,
        timestamp: '2026-01-05T10:00:00.000Z',
        message: { role: 'user', content: [{ type: 'text', text: `hello from ${agent}` }] },
      });
      await writeFile(
        join(root, 'agents', agent, 'sessions', 'a.jsonl'),
        `{"type":"session","version":3,"id":"a","timestamp":"2026-01-05T10:00:00.000Z"}\n${line}\n`,
      );
    }
    const summary = await ingest({ home: dir, log: l0Of(dir), sources: [{ kind: 'openclaw', root }], sqlite: false });
    expect(summary.errors.map((e) => e.message).join('\n')).toMatch(/"ops team" cannot form a scope/);
    expect(summary.messages.new).toBe(1);
  });

  it('strata ingest --agent with an injection-shaped id is refused', async () => {
    const dir = await home();
    const result = await runCli(['ingest', '--agent', "x' OR '1'='1", '--source', 'codex'], { env: { STRATA_HOME: dir } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Invalid agent id/);
  });
});
