import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { testPostgres } from '../support/postgres.js';
import { runJsonChild } from './run-child.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

const SESSIONS = 6;
const PER_SESSION = 12;
const TOTAL = SESSIONS * PER_SESSION;

interface ChildResult {
  distilled: number;
  runs: number;
  locked: number;
}

function runChild(args: string[]): Promise<ChildResult> {
  return runJsonChild<ChildResult>('distill-child.ts', args, 'distiller');
}

function records(): L0Record[] {
  const t0 = Date.parse('2026-03-01T09:00:00Z');
  return Array.from({ length: TOTAL }, (_, n) => {
    const s = Math.floor(n / PER_SESSION);
    const agent = s % 2 === 0 ? 'alice' : 'bob';
    return {
      sessionKey: `agent:${agent}:s${s}`,
      sessionId: `s${s}`,
      agentId: agent,
      host: 'openclaw' as const,
      id: `m${n}`,
      role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content:
        n % 2 === 0 ? `I prefer the editor theme number ${n} for project p${s}, please remember that.` : `Noted: theme ${n} for p${s}.`,
      timestamp: t0 + n * 60_000,
      recordedAt: new Date(t0 + n * 60_000).toISOString(),
    };
  });
}

/**
 * Two machines (own homes, own processes) distilling one shared L0 log on one database at once, in
 * small runs so they take turns: every message is distilled exactly once between them. The
 * control runs the same with each machine's progress in its own home, which distils everything twice.
 */
describe.skipIf(!pg)('two distillers in two processes on one PostgreSQL database', () => {
  async function scenario(state: 'files' | 'postgres'): Promise<{ a: ChildResult; b: ChildResult; pending: number }> {
    const schema = pg!.schemaName('dist');
    const dir = await mkdtemp(join(tmpdir(), 'strata-two-distill-'));
    const open = (home: string) =>
      Strata.open({
        home: join(dir, home),
        env: { STRATA_POSTGRES_URL: pg!.url },
        overrides: {
          store: { provider: 'postgres', postgres: { schema } },
          state: { provider: state },
          embedder: { provider: 'none' },
          llm: { provider: 'none' },
        },
      });
    try {
      const writer = await open('home-w');
      try {
        expect((await writer.appendConversation({ records: records() })).written).toBe(TOTAL);
      } finally {
        await writer.close();
      }
      const [a, b] = await Promise.all([
        runChild([join(dir, 'home-a'), pg!.url, schema, state, '10']),
        runChild([join(dir, 'home-b'), pg!.url, schema, state, '10']),
      ]);
      // A third machine finds nothing left to distil (with shared progress).
      const third = await open('home-a');
      try {
        const report = await third.distill({ lockTimeoutMs: 5_000 });
        return { a, b, pending: report.messages.read };
      } finally {
        await third.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }

  it('distil every message of the shared log exactly once between them', async () => {
    const { a, b, pending } = await scenario('postgres');
    expect(a.distilled + b.distilled).toBe(TOTAL);
    expect(a.runs + b.runs).toBeGreaterThan(2);
    expect(pending).toBe(0);
  }, 180_000);

  it('control: with each machine keeping its own progress, the same log is distilled twice', async () => {
    const { a, b } = await scenario('files');
    expect(a.distilled + b.distilled).toBe(2 * TOTAL);
  }, 180_000);
});
