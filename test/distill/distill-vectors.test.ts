import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { HistoryLog, revertLast } from '../../src/core/history/index.js';
import { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { ctxOf, llmClient, msg, removeDir, tempDir, themeModel, writeL0 } from './helpers.js';

/** The same flows with real vectors (local embedder): vector similarity feeds reconciliation. */
let server: ScriptedLlmServer;
const homes: string[] = [];
beforeAll(async () => {
  server = await startScriptedLlmServer({ script: themeModel });
});
afterAll(async () => {
  await server.close();
  for (const h of homes) await removeDir(h);
});

async function open(): Promise<{ home: string; strata: Strata }> {
  const home = await tempDir();
  homes.push(home);
  return { home, strata: await Strata.open({ home, overrides: { embedder: { provider: 'local' } } }) };
}

describe('distill with vectors (local embedder)', () => {
  it('rule path: a paraphrase is a near duplicate and is skipped', async () => {
    const { home, strata } = await open();
    try {
      await writeL0(home, [
        msg({ session: 'v1', role: 'user', content: 'I prefer tabs over spaces in Python.', at: '2026-11-01T09:00:00Z' }),
      ]);
      await runDistill({ ctx: ctxOf(strata), home });
      await writeL0(home, [
        msg({ session: 'v2', role: 'user', content: 'I prefer tabs instead of spaces in Python!', at: '2026-11-02T09:00:00Z' }),
      ]);
      const second = await runDistill({ ctx: ctxOf(strata), home });
      expect(second.decisions).toMatchObject({ skip: 1, create: 0 });
      expect(second.changes).toEqual([]);
      expect(await strata.count({ scopes: ['agent:main'] })).toBe(1);
    } finally {
      await strata.close();
    }
  });

  it('rule path: a plain statement retold in other words is skipped; one sharing a single word is stored', async () => {
    const { home, strata } = await open();
    try {
      const say = async (session: string, content: string, at: string) => {
        await writeL0(home, [msg({ session, role: 'user', content, at })]);
        return runDistill({ ctx: ctxOf(strata), home });
      };
      await say('p1', 'internal calls between services use gRPC', '2026-11-01T09:00:00Z');
      await say('p2', 'my salary goes into my monzo account', '2026-11-02T09:00:00Z');
      // Cosine 0.78 (below the 0.8 a triggered statement needs) and three shared words: told again.
      const retold = await say('p3', 'calls between our internal services go over gRPC', '2026-11-03T09:00:00Z');
      expect(retold.decisions).toMatchObject({ skip: 1, create: 0 });
      // Close in topic (cosine 0.66) and one shared word: another fact, not the salary told again.
      const pension = await say('p4', 'my pension pot sits in an aviva account', '2026-11-04T09:00:00Z');
      expect(pension.decisions).toMatchObject({ skip: 0, create: 1 });
      expect(await strata.count({ scopes: ['agent:main', 'global'] })).toBe(3);
    } finally {
      await strata.close();
    }
  });

  it('LLM path: a changed preference supersedes the vector-similar one; revert brings the old one back to recall', async () => {
    const { home, strata } = await open();
    try {
      const ctx = ctxOf(strata);
      await writeL0(home, [msg({ session: 'w1', role: 'user', content: 'I prefer dark mode in my editor.', at: '2026-11-01T09:00:00Z' })]);
      await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
      await writeL0(home, [
        msg({ session: 'w2', role: 'user', content: 'I now prefer light mode in the editor.', at: '2026-11-02T09:00:00Z' }),
      ]);
      const r = await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
      expect(r.decisions.supersede).toBe(1);
      const recalled = await strata.recall({ query: 'which editor theme does the user like', scopes: ['global'] });
      expect(recalled.results.map((x) => x.record.text)).toEqual(['The user prefers light mode in the editor.']);

      const sup = r.changes.find((c) => c.kind === 'supersede')!;
      await revertLast({ ctx, history: new HistoryLog({ home }), id: sup.id! });
      const after = await strata.recall({ query: 'which editor theme does the user like', scopes: ['global'] });
      expect(after.results.map((x) => x.record.text)).toEqual(['The user prefers dark mode in the editor.']);
    } finally {
      await strata.close();
    }
  });
});
