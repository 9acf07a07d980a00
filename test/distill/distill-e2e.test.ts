import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { HistoryLog, revertLast } from '../../src/core/history/index.js';
import { createAnthropic } from '../../src/backends/llm-anthropic/index.js';
import { createLlmClient, summarizeUsage } from '../../src/core/llm/index.js';
import type { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { asAnthropic, ctxOf, llmClient, msg, openStrata, removeDir, schemaNameOf, tempDir, themeModel, writeL0 } from './helpers.js';

let home: string;
let server: ScriptedLlmServer;
let strata: Strata;

beforeEach(async () => {
  home = await tempDir();
  server = await startScriptedLlmServer({ script: themeModel });
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await server.close();
  await removeDir(home);
});

const story = {
  s1: [
    msg({
      session: 's1',
      role: 'user',
      content: 'Hi! For the record, I prefer dark mode in my editor.',
      at: '2026-11-01T09:00:00Z',
      id: 's1-u1',
    }),
    msg({ session: 's1', role: 'assistant', content: 'Noted, dark mode it is.', at: '2026-11-01T09:00:05Z', id: 's1-a1' }),
    msg({ session: 's1', role: 'tool', content: '{"ok":true}', at: '2026-11-01T09:00:06Z', id: 's1-t1' }),
  ],
  s2: [
    msg({
      session: 's2',
      role: 'user',
      content: 'As I said, dark mode again please, I still like it.',
      at: '2026-11-03T10:00:00Z',
      id: 's2-u1',
    }),
  ],
  s3: [
    msg({
      session: 's3',
      role: 'user',
      content: 'Actually I switched: I now prefer light mode in the editor.',
      at: '2026-11-05T11:00:00Z',
      id: 's3-u1',
    }),
    msg({ session: 's3', role: 'assistant', content: 'Got it, light mode from now on.', at: '2026-11-05T11:00:03Z', id: 's3-a1' }),
  ],
  s4: [msg({ session: 's4', role: 'user', content: 'Which editor theme do I like?', at: '2026-11-07T08:00:00Z', id: 's4-u1' })],
};

describe('distill end to end (scripted LLM)', () => {
  it('stated, repeated, changed, asked: one current memory, its superseded predecessor, provenance, no duplicate', async () => {
    const ctx = ctxOf(strata);
    const llm = llmClient(server.baseURL, { home });
    await writeL0(home, story.s1);
    const r1 = await runDistill({ ctx, home, llm });
    expect(r1.decisions.create).toBe(1);
    expect(r1.messages).toEqual({ read: 3, distilled: 3, pending: 0 });
    // Nothing similar was stored yet: no reconcile call was needed.
    expect(server.requests.map(schemaNameOf)).toEqual(['memories']);

    await writeL0(home, story.s2);
    const r2 = await runDistill({ ctx, home, llm });
    expect(r2.decisions.skip).toBe(1);
    expect(r2.decisions.create).toBe(0);

    await writeL0(home, [...story.s3, ...story.s4]);
    const r3 = await runDistill({ ctx, home, llm });
    expect(r3.decisions.supersede).toBe(1);
    expect(r3.llmCalls).toBe(2); // s3 and s4 share one extraction call; then one reconcile for s3
    expect(r3.tokens.total).toBeGreaterThan(0);
    expect(r3.cost).toBeGreaterThan(0);

    const current = await strata.list({ scopes: ['global'] });
    expect(current.map((r) => r.text)).toEqual(['The user prefers light mode in the editor.']);
    const all = await strata.list({ scopes: ['global'], includeHistory: true });
    expect(all).toHaveLength(2);
    const now = current[0]!;
    const old = all.find((r) => r.id !== now.id)!;
    expect(old.text).toBe('The user prefers dark mode in the editor.');
    expect(old.validTo).not.toBeNull();
    expect(old.supersededBy).toBe(now.id);
    expect(now.supersedes).toBe(old.id);
    expect(now.source).toEqual({ kind: 'distill', agentId: 'main', sessionKey: 'agent:main:s3', messageIds: ['s3-u1'] });
    expect(old.source).toEqual({ kind: 'distill', agentId: 'main', sessionKey: 'agent:main:s1', messageIds: ['s1-u1'] });
    expect(now.validFrom).toBe('2026-11-05T11:00:00.000Z');
    expect(now.tags).toContain('主题');

    // A rerun with nothing new changes nothing and calls no model.
    const calls = server.requests.length;
    const r4 = await runDistill({ ctx, home, llm });
    expect(r4.messages.read).toBe(0);
    expect(server.requests).toHaveLength(calls);
    expect(await strata.count({ scopes: ['global'], includeHistory: true })).toBe(2);

    // Usage was logged for `strata stats`.
    const usage = await summarizeUsage({ home });
    expect(usage.byPurpose['distill.extract']?.calls).toBe(3);
    expect(usage.byPurpose['distill.reconcile']?.calls).toBe(2);

    // History: the old memory was created then superseded; revert undoes the supersede.
    const history = new HistoryLog({ home });
    expect((await history.historyOf({ id: old.id })).map((e) => e.action)).toEqual(['create', 'supersede']);
    const [sup] = await history.historyOf({ id: now.id });
    expect(sup?.related?.[0]?.previous?.validTo).toBeNull();

    const undo = await revertLast({ ctx, history, id: old.id, actor: 'cli' });
    expect(undo.deleted).toEqual([now.id]);
    expect(undo.restored).toEqual([old.id]);
    const afterUndo = await strata.list({ scopes: ['global'], includeHistory: true });
    expect(afterUndo.map((r) => [r.text, r.validTo, r.supersededBy])).toEqual([['The user prefers dark mode in the editor.', null, null]]);

    // Reverting the revert re-applies the change exactly.
    await revertLast({ ctx, history, id: old.id, actor: 'cli' });
    const redo = await strata.list({ scopes: ['global'], includeHistory: true });
    expect(redo).toHaveLength(2);
    expect(redo.find((r) => r.id === now.id)?.validTo).toBeNull();
    expect(redo.find((r) => r.id === old.id)?.supersededBy).toBe(now.id);
    expect((await history.historyOf({ id: old.id })).map((e) => e.action)).toEqual(['create', 'supersede', 'revert', 'revert']);
  });

  it('works the same through the Anthropic Messages API (forced tool output)', async () => {
    const anthropicServer = await startScriptedLlmServer({ script: asAnthropic(themeModel) });
    try {
      process.env.STRATA_TEST_DISTILL_KEY = 'k';
      const llm = createLlmClient({
        llm: createAnthropic({ baseURL: anthropicServer.baseURL, model: 'claude-test', apiKeyEnv: 'STRATA_TEST_DISTILL_KEY' }),
        initialDelayMs: 1,
      });
      delete process.env.STRATA_TEST_DISTILL_KEY;
      await writeL0(home, [...story.s1, ...story.s3]);
      const r = await runDistill({ ctx: ctxOf(strata), home, llm });
      expect(r.errors).toEqual([]);
      expect(r.decisions).toMatchObject({ create: 1, supersede: 1 });
      expect(anthropicServer.requests.map((q) => [q.api, schemaNameOf(q)])).toEqual([
        ['anthropic', 'memories'],
        ['anthropic', 'decisions'],
      ]);
      expect((await strata.list({ scopes: ['global'] })).map((m) => m.text)).toEqual(['The user prefers light mode in the editor.']);
    } finally {
      await anthropicServer.close();
    }
  });

  it('dry run decides but writes nothing and leaves the cursor', async () => {
    const ctx = ctxOf(strata);
    const llm = llmClient(server.baseURL);
    await writeL0(home, story.s1);
    const dry = await runDistill({ ctx, home, llm, dryRun: true });
    expect(dry.decisions.create).toBe(1);
    expect(dry.changes).toEqual([]);
    expect(await strata.count({ scopes: ['global'] })).toBe(0);
    const real = await runDistill({ ctx, home, llm });
    expect(real.messages.read).toBe(3);
    expect(await strata.count({ scopes: ['global'] })).toBe(1);
  });

  it('--agent distills only that agent and leaves the others pending', async () => {
    const ctx = ctxOf(strata);
    const llm = llmClient(server.baseURL);
    await writeL0(home, [
      msg({
        session: 'a',
        agent: 'coder',
        role: 'user',
        content: 'Remember: we deploy on Fridays only after review.',
        at: '2026-11-02T09:00:00Z',
      }),
      ...story.s1,
    ]);
    const only = await runDistill({ ctx, home, llm, agentId: 'coder' });
    expect(only.messages.read).toBe(1);
    expect((await strata.list({ scopes: ['agent:coder'] })).map((r) => r.text)).toEqual(['The team deploys on Fridays only after review.']);
    expect(await strata.count({ scopes: ['global'] })).toBe(0);
    const rest = await runDistill({ ctx, home, llm });
    expect(rest.messages.read).toBe(3);
    expect(await strata.count({ scopes: ['global'] })).toBe(1);
  });
});
