import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l0Of } from '../capture/helpers.js';
import { StrataError } from '../../src/errors/index.js';
import { readSessionSummaries, runSummaries, summaryPaths, type SummaryOptions } from '../../src/core/summaries/index.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import {
  assertConsistent,
  countByLevel,
  keyOf,
  llmClient,
  readIndexes,
  removeDir,
  session,
  summaryModel,
  tempHome,
  writeL0,
} from './helpers.js';

/**
 * Small thresholds for hand computation. Every message is 50 tokens, so:
 * - eligible = messages with >= 1000 tokens after them = all but the newest 20;
 * - a chunk closes at 10 messages (500 tokens);
 * - 3 unmerged summaries at a level merge into one at the next; level 3 never merges.
 */
const CONFIG: Partial<SummaryOptions> = { boundaryTokens: 1000, chunkTokens: 500, summaryTokens: 100, mergeFanIn: 3, maxLevel: 3 };

let home: string;
let server: ScriptedLlmServer | undefined;
let A: L0Record[];
let B: L0Record[];
let C: L0Record[];

beforeEach(async () => {
  home = await tempHome();
  A = session({ key: 'agent:main:telegram:A', count: 250 });
  B = session({ key: 'agent:main:B', count: 100, start: '2026-01-03T00:00:00Z' });
  C = session({ key: 'C/../odd key', count: 45, start: '2026-01-04T00:00:00Z' });
  // Interleave the sessions in the log the way a capture would write them.
  await writeL0(
    home,
    [...A, ...B, ...C].sort((x, y) => x.timestamp - y.timestamp),
  );
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeDir(home);
});

/** The hand computation for the history above. */
const EXPECTED = {
  // A: 230 eligible -> 23 chunks; 23 L1 -> 7 L2 (21 merged, 2 left); 7 L2 -> 2 L3 (6 merged, 1 left).
  A: { all: { 1: 23, 2: 7, 3: 2 }, unmerged: { 1: 2, 2: 1, 3: 2 } },
  // B: 80 eligible -> 8 chunks; 8 L1 -> 2 L2 (6 merged, 2 left).
  B: { all: { 1: 8, 2: 2 }, unmerged: { 1: 2, 2: 2 } },
  // C: 25 eligible -> 2 chunks + 5 messages (250 tokens) that wait: the next message still fits.
  C: { all: { 1: 2 }, unmerged: { 1: 2 } },
};
const TOTAL_CALLS = 23 + 7 + 2 + 8 + 2 + 2;

describe('runSummaries on a long generated history', () => {
  it('summarises and merges exactly as the thresholds say, and re-running is a no-op', async () => {
    server = await startScriptedLlmServer({ script: summaryModel });
    const llm = llmClient(server.baseURL);
    const report = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG });

    expect(report.sessionsVisited).toBe(3);
    expect(report.chunksSummarised).toBe(33);
    expect(report.merges).toEqual({ 2: 9, 3: 2 });
    expect(report.llmCalls).toBe(TOTAL_CALLS);
    expect(server.requests).toHaveLength(TOTAL_CALLS);
    expect(report.failed).toBe(0);
    const c = report.sessions.find((s) => s.sessionKey === C[0]!.sessionKey)!;
    expect(c.stoppedBecause).toBe('partial-chunk-waiting');
    expect(c.waiting).toEqual({ messages: 5, tokens: 250 });

    const indexes = await readIndexes(home);
    for (const [name, records] of [
      ['A', A],
      ['B', B],
      ['C', C],
    ] as const) {
      const key = records[0]!.sessionKey;
      const index = indexes.get(key);
      expect(countByLevel(index), name).toEqual(EXPECTED[name].all);
      expect(countByLevel(index, true), name).toEqual(EXPECTED[name].unmerged);
      await assertConsistent(home, summaryPaths({ home, agentId: 'main', sessionKey: key }).sessionDir, index!);
      // Chunks are cut on message boundaries, 10 messages each, oldest first, over the eligible messages only.
      const chunks = index!.summaries.filter((s) => s.level === 1);
      expect(chunks.every((s) => s.sourceIds.length === 10 && s.sourceTokens === 500)).toBe(true);
      expect(chunks.flatMap((s) => s.sourceIds)).toEqual(records.slice(0, chunks.length * 10).map(keyOf));
    }
    // Level 2 merges take three consecutive level-1 summaries, oldest first.
    const a = indexes.get(A[0]!.sessionKey)!;
    expect(a.summaries.find((s) => s.id === 'L2-0001')!.sourceIds).toEqual(['L1-0001', 'L1-0002', 'L1-0003']);
    expect(a.summaries.find((s) => s.id === 'L3-0002')!.sourceIds).toEqual(['L2-0004', 'L2-0005', 'L2-0006']);
    expect(a.summaries.find((s) => s.id === 'L3-0002')!.messageCount).toBe(90);
    // The chunk prompt carries the earlier summaries as context.
    const second = server.requests[1]!;
    expect(JSON.stringify(second.body)).toContain('chunk summary #0');

    const snapshot = await snapshotSummaries();
    const again = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG });
    expect(again).toMatchObject({ chunksSummarised: 0, merges: {}, llmCalls: 0, failed: 0 });
    expect(again.skipped).toEqual({ 'nothing-old-enough': 2, 'partial-chunk-waiting': 1 });
    expect(server.requests).toHaveLength(TOTAL_CALLS);
    expect(await snapshotSummaries()).toEqual(snapshot);
  });

  it('continues where the history grew: new messages close the waiting chunk', async () => {
    server = await startScriptedLlmServer({ script: summaryModel });
    const llm = llmClient(server.baseURL);
    await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: C[0]!.sessionKey });
    // 5 more messages: 30 eligible, so the third chunk (messages 20-29) closes.
    const more = session({ key: C[0]!.sessionKey, count: 50, start: '2026-01-04T00:00:00Z' }).slice(45);
    await writeL0(home, more);
    const report = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: C[0]!.sessionKey });
    expect(report).toMatchObject({ chunksSummarised: 1, merges: { 2: 1 }, llmCalls: 2 });
    const index = (await readIndexes(home)).get(C[0]!.sessionKey);
    expect(countByLevel(index, true)).toEqual({ 2: 1 });
    expect(index!.summaries.find((s) => s.id === 'L1-0003')!.sourceIds).toEqual(
      session({ key: C[0]!.sessionKey, count: 30, start: '2026-01-04T00:00:00Z' }).slice(20).map(keyOf),
    );
  });

  it('picks up a message that arrives late with an old timestamp in the next chunk, never skipping it', async () => {
    server = await startScriptedLlmServer({ script: summaryModel });
    const llm = llmClient(server.baseURL);
    const key = C[0]!.sessionKey;
    await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: key });
    const late = {
      ...C[0]!,
      id: 'late',
      content: C[0]!.content.replace('message 0', 'late msg0'),
      timestamp: C[0]!.timestamp - 1,
      recordedAt: '2026-02-01T00:00:00.000Z',
    };
    const grown = session({ key, count: 55, start: '2026-01-04T00:00:00Z' }).slice(45);
    await writeL0(home, [late, ...grown]);
    // Sorted: late, m0..m54 (56 messages, 36 eligible). Pending: late, m20..m34 eligible ->
    // chunk [late, m20..m28] closes at 500 tokens; m29..m34 (300 tokens) wait; 3 L1 merge into one L2.
    const report = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: key });
    expect(report).toMatchObject({ chunksSummarised: 1, merges: { 2: 1 } });
    expect(report.sessions[0]!.waiting).toEqual({ messages: 6, tokens: 300 });
    const index = (await readIndexes(home)).get(key)!;
    expect(index.summaries.find((s) => s.id === 'L1-0003')!.sourceIds).toEqual([keyOf(late), ...C.slice(20, 29).map(keyOf)]);
    await assertConsistent(home, summaryPaths({ home, agentId: 'main', sessionKey: key }).sessionDir, index);
  });

  it('leaves a consistent index when the LLM fails midway, and the next run finishes the job', async () => {
    let calls = 0;
    server = await startScriptedLlmServer({
      script: (request, index) => {
        calls++;
        return calls === 15 ? { kind: 'status', status: 400, body: { error: { message: 'bad request' } } } : summaryModel(request, index);
      },
    });
    const llm = llmClient(server.baseURL);
    const first = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: A[0]!.sessionKey });
    expect(first.failed).toBe(1);
    expect(first.sessions[0]!.error?.code).toBe('PROVIDER_CALL');
    expect(first.llmCalls).toBe(15);
    const dir = summaryPaths({ home, agentId: 'main', sessionKey: A[0]!.sessionKey }).sessionDir;
    const partial = (await readIndexes(home)).get(A[0]!.sessionKey)!;
    expect(partial.summaries).toHaveLength(14);
    await assertConsistent(home, dir, partial);

    // A summary file written just before a crash, never referenced by the index, is simply replaced.
    const nextL1 = `L1-${String(partial.summaries.filter((s) => s.level === 1).length + 1).padStart(4, '0')}.md`;
    await writeFile(join(dir, nextL1), 'torn leftover of a crashed run');

    const second = await runSummaries({ home, l0: l0Of(home), llm, config: CONFIG, sessionKey: A[0]!.sessionKey });
    expect(second.failed).toBe(0);
    expect(first.llmCalls - 1 + second.llmCalls).toBe(32);
    const index = (await readIndexes(home)).get(A[0]!.sessionKey)!;
    expect(countByLevel(index)).toEqual(EXPECTED.A.all);
    expect(countByLevel(index, true)).toEqual(EXPECTED.A.unmerged);
    await assertConsistent(home, dir, index);
    expect(await readFile(join(dir, nextL1), 'utf8')).toMatch(/^chunk summary #\d+/);
  });

  it('serialises two concurrent runs: no duplicate summaries or calls', async () => {
    server = await startScriptedLlmServer({ script: (request, index) => ({ ...summaryModel(request, index), delayMs: 2 }) });
    const llm = llmClient(server.baseURL);
    const [one, two] = await Promise.all([
      runSummaries({ home, l0: l0Of(home), llm, config: CONFIG }),
      runSummaries({ home, l0: l0Of(home), llm, config: CONFIG }),
    ]);
    expect(one.failed + two.failed).toBe(0);
    expect(one.llmCalls + two.llmCalls).toBe(TOTAL_CALLS);
    expect(one.chunksSummarised + two.chunksSummarised).toBe(33);
    expect(server.requests).toHaveLength(TOTAL_CALLS);
    const indexes = await readIndexes(home);
    expect(countByLevel(indexes.get(A[0]!.sessionKey))).toEqual(EXPECTED.A.all);
    expect(countByLevel(indexes.get(B[0]!.sessionKey))).toEqual(EXPECTED.B.all);
    expect(countByLevel(indexes.get(C[0]!.sessionKey))).toEqual(EXPECTED.C.all);
  });

  it('plans without an LLM or writes on a dry run, and refuses a real run without an LLM', async () => {
    const plan = await runSummaries({ home, l0: l0Of(home), config: CONFIG, dryRun: true });
    expect(plan).toMatchObject({ dryRun: true, chunksSummarised: 33, merges: { 2: 9, 3: 2 }, llmCalls: 0 });
    expect(await readdir(home)).toEqual(['conversations']);
    const error = await runSummaries({ home, l0: l0Of(home), config: CONFIG }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
    expect((error as Error).message).toContain('llm.provider');
  });
});

describe('readSessionSummaries', () => {
  it('returns the covering summaries in order, newest kept within the budget', async () => {
    server = await startScriptedLlmServer({ script: summaryModel });
    await runSummaries({ home, l0: l0Of(home), llm: llmClient(server.baseURL), config: CONFIG });
    const sessionKey = A[0]!.sessionKey;
    const all = await readSessionSummaries({ home, agentId: 'main', sessionKey });
    expect(all.summaries.map((s) => s.id)).toEqual(['L3-0001', 'L3-0002', 'L2-0007', 'L1-0022', 'L1-0023']);
    expect(all.omitted).toBe(0);
    // Contiguous, in time order, covering every summarised message once.
    for (let i = 1; i < all.summaries.length; i++) expect(all.summaries[i]!.from).toBeGreaterThan(all.summaries[i - 1]!.to);
    expect(all.summaries.reduce((n, s) => n + s.messageCount, 0)).toBe(230);
    expect(all.summaries[0]!.text).toMatch(/^merge summary/);

    const perSummary = all.summaries[4]!.tokens;
    const budgeted = await readSessionSummaries({ home, agentId: 'main', sessionKey, budgetTokens: perSummary * 2 + 1 });
    expect(budgeted.summaries.map((s) => s.id)).toEqual(['L1-0022', 'L1-0023']);
    expect(budgeted.omitted).toBe(3);
    expect(budgeted.tokens).toBeLessThanOrEqual(perSummary * 2 + 1);

    // Without a session key: every session of the agent, the most recently active last.
    const agent = await readSessionSummaries({ home, agentId: 'main' });
    expect(agent.summaries.map((s) => s.sessionKey).at(-1)).toBe(C[0]!.sessionKey);
    expect(agent.summaries).toHaveLength(5 + 4 + 2);
    expect((await readSessionSummaries({ home, agentId: 'nobody' })).summaries).toEqual([]);
  });
});

async function snapshotSummaries(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out[path] = await readFile(path, 'utf8');
    }
  };
  await walk(join(home, 'summaries'));
  return out;
}
