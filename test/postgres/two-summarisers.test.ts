import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresSummaryStore } from '../../src/backends/summaries-postgres/index.js';
import { readSessionSummaries, runSummaries, type SummaryOptions } from '../../src/core/summaries/index.js';
import { l0Of } from '../capture/helpers.js';
import { startScriptedLlmServer } from '../support/scripted-llm-server.js';
import { testPostgres } from '../support/postgres.js';
import { countByLevel, llmClient, removeDir, session, summaryModel, tempHome, writeL0 } from '../summaries/helpers.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

const CONFIG: Partial<SummaryOptions> = { boundaryTokens: 1000, chunkTokens: 500, summaryTokens: 100, mergeFanIn: 3, maxLevel: 3 };

/**
 * Two summarisers with their own connection pools (two machines, in effect) on one database and
 * one log: each session is summarised once between them (the session lock), and a third reader
 * sees the result. With 250 + 100 messages of 50 tokens: A gives 23 L1, 7 L2, 2 L3; B 8 L1, 2 L2.
 */
describe.skipIf(!pg)('two summarisers on one PostgreSQL database', () => {
  it('summarise each chunk once between them, and every machine reads the summaries', async () => {
    const schema = pg!.schemaName('sums');
    const home = await tempHome();
    const server = await startScriptedLlmServer({ script: (request, index) => ({ ...summaryModel(request, index), delayMs: 2 }) });
    const open = (n: number) => createPostgresSummaryStore({ url: `${pg!.url}&application_name=strata_sums_${n}`, schema, poolSize: 2 });
    const [one, two, reader] = [open(1), open(2), open(3)];
    try {
      const A = session({ key: 'agent:main:telegram:A', count: 250 });
      const B = session({ key: 'agent:main:B', count: 100, start: '2026-01-03T00:00:00Z' });
      await writeL0(
        home,
        [...A, ...B].sort((x, y) => x.timestamp - y.timestamp),
      );
      const llm = llmClient(server.baseURL);
      const [r1, r2] = await Promise.all([
        runSummaries({ home, store: one, l0: l0Of(home), llm, config: CONFIG }),
        runSummaries({ home, store: two, l0: l0Of(home), llm, config: CONFIG }),
      ]);
      expect(r1.failed + r2.failed).toBe(0);
      expect(r1.llmCalls + r2.llmCalls).toBe(23 + 7 + 2 + 8 + 2);
      expect(server.requests).toHaveLength(42);
      const indexes = new Map((await reader.indexes({ agentId: 'main' })).map((i) => [i.sessionKey, i]));
      expect(countByLevel(indexes.get(A[0]!.sessionKey))).toEqual({ 1: 23, 2: 7, 3: 2 });
      expect(countByLevel(indexes.get(B[0]!.sessionKey))).toEqual({ 1: 8, 2: 2 });
      const read = await readSessionSummaries({ home: '/nowhere', store: reader, agentId: 'main', sessionKey: A[0]!.sessionKey });
      expect(read.summaries.map((s) => s.level)).toEqual([3, 3, 2, 1, 1]);
      expect(read.summaries.every((s) => s.text.length > 0)).toBe(true);
    } finally {
      await Promise.all([one.close(), two.close(), reader.close()]);
      await server.close();
      await removeDir(home);
      await pg!.dropSchema(schema);
    }
  }, 120_000);
});
