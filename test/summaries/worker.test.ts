import { isAbortError } from '../../src/provider-utils/retry.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l0Of } from '../capture/helpers.js';
import {
  createSummaryWorker,
  resolveSummaryOptions,
  sessionSlug,
  summaryPaths,
  type SummaryRunReport,
} from '../../src/core/summaries/index.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { assertConsistent, countByLevel, llmClient, readIndexes, removeDir, session, summaryModel, tempHome, writeL0 } from './helpers.js';

const CONFIG = { boundaryTokens: 1000, chunkTokens: 500, summaryTokens: 100, mergeFanIn: 3, maxLevel: 3 };
const KEY = 'agent:main:main';

let home: string;
let server: ScriptedLlmServer | undefined;
beforeEach(async () => {
  home = await tempHome();
  // 90 messages: 70 eligible -> 7 chunks -> 2 merges into level 2.
  await writeL0(home, session({ key: KEY, count: 90 }));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await removeDir(home);
});

describe('createSummaryWorker', () => {
  it('runs passes on its interval until stopped', async () => {
    server = await startScriptedLlmServer({ script: summaryModel });
    const reports: SummaryRunReport[] = [];
    let secondPass!: () => void;
    const done = new Promise<void>((resolve) => (secondPass = resolve));
    const worker = createSummaryWorker({
      home,
      l0: l0Of(home),
      llm: llmClient(server.baseURL),
      config: CONFIG,
      intervalMs: 5,
      onReport: (r) => {
        reports.push(r);
        if (reports.length === 2) secondPass();
      },
    });
    worker.start();
    await done;
    await worker.stop();
    expect(reports[0]).toMatchObject({ chunksSummarised: 7, merges: { 2: 2 }, llmCalls: 9 });
    expect(reports[1]).toMatchObject({ chunksSummarised: 0, llmCalls: 0 });
    expect(countByLevel((await readIndexes(home)).get(KEY))).toEqual({ 1: 7, 2: 2 });
    expect(worker.running).toBe(false);
  });

  it('stop() aborts a pass waiting on the LLM and leaves the index consistent', async () => {
    server = await startScriptedLlmServer({ script: (request, index) => (index < 4 ? summaryModel(request, index) : { kind: 'hang' }) });
    const worker = createSummaryWorker({ home, l0: l0Of(home), llm: llmClient(server.baseURL), config: CONFIG });
    const pass = worker.runOnce();
    expect(worker.runOnce()).toBe(pass); // joins the pass in flight
    while (server.requests.length < 5) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    expect(isAbortError(await pass.catch((e: unknown) => e))).toBe(true);
    const index = (await readIndexes(home)).get(KEY)!;
    expect(countByLevel(index)).toEqual({ 1: 3, 2: 1 });
    await assertConsistent(home, summaryPaths({ home, agentId: 'main', sessionKey: KEY }).sessionDir, index);
  });
});

describe('options and paths', () => {
  it('rejects bad settings with the setting named', () => {
    expect(resolveSummaryOptions({})).toEqual({
      boundaryTokens: 30000,
      chunkTokens: 6000,
      summaryTokens: 1000,
      mergeFanIn: 6,
      maxLevel: 3,
      intervalMs: 600000,
    });
    expect(() => resolveSummaryOptions({ mergeFanIn: 1 })).toThrow(/summaries\.mergeFanIn must be an integer >= 2/);
    expect(() => resolveSummaryOptions({ chunkTokens: 1.5 })).toThrow(/summaries\.chunkTokens/);
  });

  it('maps any session key to one safe folder name, distinct per key', () => {
    const keys = ['agent:main:main', 'AGENT:MAIN:MAIN', '../../etc/passwd', '.', '..', '', 'a/b\\c', 'x'.repeat(500), '会话'];
    const slugs = keys.map(sessionSlug);
    expect(new Set(slugs.map((s) => s.toLowerCase())).size).toBe(keys.length);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9][a-z0-9-]{0,70}$/);
    expect(summaryPaths({ home: '/h', agentId: '../x', sessionKey: 'k' }).agentDir).toMatch(/^\/h\/summaries\/_[a-z0-9-]+$/);
  });
});
