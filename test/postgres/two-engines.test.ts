import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Strata } from '../../src/strata.js';
import { testPostgres } from '../support/postgres.js';
import { runJsonChild } from './run-child.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

const COUNT = 40;

function runChild(args: string[]): Promise<{ agent: string; ids: string[]; leaks: string[] }> {
  return runJsonChild<{ agent: string; ids: string[]; leaks: string[] }>('engine-child.ts', args, `child ${args[3]}`);
}

/**
 * Two engines in separate processes, each with its own home (two machines, in effect) on one
 * database, writing memories and conversation turns at once and reading between writes.
 */
describe.skipIf(!pg)('two engines in two processes on one PostgreSQL database', () => {
  it("lose nothing, duplicate nothing and never see the other agent's scope or conversations", async () => {
    const schema = pg!.schemaName('two');
    const dir = await mkdtemp(join(tmpdir(), 'strata-two-'));
    try {
      const [a, b] = await Promise.all([
        runChild([join(dir, 'home-a'), pg!.url, schema, 'alice', String(COUNT)]),
        runChild([join(dir, 'home-b'), pg!.url, schema, 'bob', String(COUNT)]),
      ]);
      expect(a.leaks).toEqual([]);
      expect(b.leaks).toEqual([]);
      expect(new Set([...a.ids, ...b.ids]).size).toBe(2 * COUNT);

      // A third engine (another machine) sees everything both wrote, once, each in its own scope.
      const owner = await Strata.open({
        home: join(dir, 'home-c'),
        env: { STRATA_POSTGRES_URL: pg!.url },
        overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
      });
      try {
        for (const [agent, ids] of [
          ['alice', a.ids],
          ['bob', b.ids],
        ] as const) {
          const listed = await owner.list({ scopes: [`agent:${agent}`], limit: 1000 });
          expect(listed.map((m) => m.id).sort()).toEqual([...ids].sort());
          const turns = await owner.searchConversations({ query: 'shared topic', agentIds: [agent], limit: 100 });
          expect(turns.map((t) => t.record.id).sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `m${i}`).sort());
          expect(turns.every((t) => t.record.agentId === agent)).toBe(true);
          // The history is shared too: the other machine's changes are visible here.
          expect((await owner.history({ id: ids[0]! })).map((e) => e.action)).toEqual(['create']);
        }
        const rows = await pg!.query<{ n: number; distinct_ids: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct_ids FROM "${schema}".conversation_turns`,
        );
        expect(rows.rows[0]).toEqual({ n: 2 * COUNT, distinct_ids: 2 * COUNT });
      } finally {
        await owner.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }, 180_000);
});
