import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import type { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply } from '../support/scripted-llm-server.js';
import { ctxOf, llmClient, msg, openStrata, removeDir, schemaNameOf, tempDir, themeModel, writeL0 } from './helpers.js';

let home: string;
let server: ScriptedLlmServer;
let strata: Strata;
/** Replies to use before falling back to the theme model, keyed by call index. */
let faults: Map<number, ScriptedReply>;

beforeEach(async () => {
  home = await tempDir();
  faults = new Map();
  server = await startScriptedLlmServer({ script: (request, index) => faults.get(index) ?? themeModel(request) });
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await server.close();
  await removeDir(home);
});

const dark = msg({ session: 'f1', role: 'user', content: 'I prefer dark mode in my editor.', at: '2026-11-01T09:00:00Z', id: 'f1-u1' });
const light = msg({
  session: 'f2',
  role: 'user',
  content: 'I now prefer light mode in the editor.',
  at: '2026-11-02T09:00:00Z',
  id: 'f2-u1',
});
const texts = async () =>
  (await strata.list({ scopes: ['global'], includeHistory: true, order: 'oldest' })).map((r) => `${r.validTo ? 'old' : 'cur'}: ${r.text}`);
const status = (code: number): ScriptedReply => ({ kind: 'status', status: code, headers: { 'retry-after-ms': '1' } });

describe('distill under LLM faults', () => {
  it('extraction down (500s past the retries): nothing stored, cursor kept, the next run does the work', async () => {
    const ctx = ctxOf(strata);
    await writeL0(home, [dark]);
    for (let i = 0; i < 3; i++) faults.set(i, status(500));
    const failed = await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
    expect(failed.errors).toMatchObject([{ stage: 'extract', code: 'RETRY_EXHAUSTED', sessionKey: 'agent:main:f1' }]);
    expect(failed.messages).toEqual({ read: 1, distilled: 0, pending: 1 });
    expect(await texts()).toEqual([]);
    const ok = await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
    expect(ok.errors).toEqual([]);
    expect(await texts()).toEqual(['cur: The user prefers dark mode in the editor.']);
  });

  it('reconcile fails: the extracted chunk is not stored, and is redone exactly once later', async () => {
    const ctx = ctxOf(strata);
    await writeL0(home, [dark]);
    await runDistill({ ctx, home, llm: llmClient(server.baseURL) }); // request 0
    await writeL0(home, [light]);
    faults.set(2, status(503)).set(3, status(503)).set(4, status(503)); // request 1 extracts, 2..4 reconcile
    const failed = await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
    expect(failed.errors).toMatchObject([{ stage: 'reconcile', code: 'RETRY_EXHAUSTED' }]);
    expect(failed.admitted).toBe(1);
    expect(await texts()).toEqual(['cur: The user prefers dark mode in the editor.']);
    const ok = await runDistill({ ctx, home, llm: llmClient(server.baseURL) });
    expect(ok.decisions.supersede).toBe(1);
    expect(await texts()).toEqual(['old: The user prefers dark mode in the editor.', 'cur: The user prefers light mode in the editor.']);
  });

  it('malformed JSON: one repair succeeds; garbage twice fails that batch, later batches of the agent wait, other agents go on', async () => {
    const ctx = ctxOf(strata);
    const other = msg({
      session: 'f3',
      agent: 'coder',
      role: 'user',
      content: 'Remember we deploy on Fridays after review.',
      at: '2026-11-01T10:00:00Z',
      id: 'f3-u1',
    });
    const later = msg({
      session: 'f5',
      role: 'user',
      content: 'I now prefer light mode in the editor.',
      at: '2026-11-03T09:00:00Z',
      id: 'f5-u1',
    });
    await writeL0(home, [dark, other, later]);
    faults.set(0, { kind: 'raw', body: '{"choices": [{"message": {"content": "{not json' }); // a broken HTTP body stops the run
    const broken = await runDistill({ ctx, home, llm: llmClient(server.baseURL), chunkTokens: 1 });
    expect(broken.errors.map((e) => e.code)).toEqual(['PROVIDER_CALL']);
    expect(broken.messages.pending).toBe(3);
    expect(await strata.count({ scopes: ['global', 'agent:main', 'agent:coder'] })).toBe(0);

    faults.set(1, { kind: 'text', text: 'Sure! Here are your memories: none?' }); // f1: garbage ...
    faults.set(2, { kind: 'text', text: '{"memories": "nope"}' }); // ... and a failed repair
    const r = await runDistill({ ctx, home, llm: llmClient(server.baseURL), chunkTokens: 1 });
    expect(r.errors.map((e) => [e.stage, e.sessionKey])).toEqual([['extract', 'agent:main:f1']]);
    expect(r.chunks).toMatchObject({ processed: 1, failed: 1 });
    expect((await strata.list({ scopes: ['agent:coder'] })).map((m) => m.text)).toEqual(['The team deploys on Fridays only after review.']);
    expect(r.messages.pending).toBe(2); // f1 failed; f5 (newer, same agent) waits for it

    faults.set(4, { kind: 'text', text: '```json\n{"memories": [{"text": 1}]}\n```' }); // repaired on the next call
    const again = await runDistill({ ctx, home, llm: llmClient(server.baseURL), chunkTokens: 1 });
    expect(again.errors).toEqual([]);
    expect(again.llmCalls).toBe(4); // f1 extract + repair, f5 extract, f5 reconcile
    expect(await texts()).toEqual(['old: The user prefers dark mode in the editor.', 'cur: The user prefers light mode in the editor.']);
  });

  it('rides out a 429 storm within the retry policy, and a longer storm only postpones the work', async () => {
    const ctx = ctxOf(strata);
    await writeL0(home, [dark]);
    const storm = (from: number, n: number) => {
      for (let i = from; i < from + n; i++) faults.set(i, { kind: 'status', status: 429, headers: { 'retry-after': '0' } });
    };
    storm(0, 6);
    const postponed = await runDistill({ ctx, home, llm: llmClient(server.baseURL, { maxRetries: 3 }) });
    expect(postponed.errors[0]?.code).toBe('RETRY_EXHAUSTED');
    expect(await texts()).toEqual([]);
    // Requests 4 and 5 are still 429: the retries absorb them.
    const ok = await runDistill({ ctx, home, llm: llmClient(server.baseURL, { maxRetries: 3 }) });
    expect(ok.errors).toEqual([]);
    expect(await texts()).toEqual(['cur: The user prefers dark mode in the editor.']);
    expect(server.requests).toHaveLength(7);
  });

  it('budget: a spent per-run budget leaves work pending; a spent hourly budget waits for the window and resumes', async () => {
    const ctx = ctxOf(strata);
    const sessions = ['b1', 'b2', 'b3'].map((s, i) =>
      msg({
        session: s,
        role: 'user',
        content: `I prefer dark mode in my editor${' really'.repeat(i)}.`,
        at: `2026-11-0${i + 1}T09:00:00Z`,
        id: `${s}-u1`,
      }),
    );
    await writeL0(home, sessions);
    const perRun = await runDistill({ ctx, home, llm: llmClient(server.baseURL), budget: { maxCallsPerRun: 2 }, chunkTokens: 1 });
    expect(perRun.budget).toMatchObject({ exhausted: true, limit: 'maxCallsPerRun' });
    expect(perRun.messages).toEqual({ read: 3, distilled: 1, pending: 2 });

    let clock = Date.parse('2030-01-01T10:00:00Z'); // after the real-clock window of the first part
    const now = () => new Date(clock);
    const hourly = { maxCallsPerHour: 2 };
    const first = await runDistill({ ctx, home, llm: llmClient(server.baseURL), budget: hourly, now, chunkTokens: 1 });
    expect(first.messages.distilled).toBe(1);
    clock += 10 * 60_000;
    const waiting = await runDistill({ ctx, home, llm: llmClient(server.baseURL), budget: hourly, now, chunkTokens: 1 });
    expect(waiting.budget).toEqual({ exhausted: true, limit: 'maxCallsPerHour', resumeAt: '2030-01-01T11:00:00.000Z' });
    expect(waiting.llmCalls).toBe(0);
    expect(waiting.messages.pending).toBe(1);
    clock += 60 * 60_000;
    const resumed = await runDistill({ ctx, home, llm: llmClient(server.baseURL), budget: hourly, now, chunkTokens: 1 });
    expect(resumed.budget.exhausted).toBe(false);
    expect(resumed.messages).toEqual({ read: 1, distilled: 1, pending: 0 });
    // Nothing was dropped: every session was distilled exactly once (one create, then skips).
    expect((await texts()).filter((t) => t.startsWith('cur'))).toEqual(['cur: The user prefers dark mode in the editor.']);
    expect(server.requests.map(schemaNameOf).filter((n) => n === 'memories')).toHaveLength(3);
  });
});
