/**
 * The one background worker (`Strata.createWorker`): what a capture through the same instance
 * tells it, what one pass (`runOnce`, the hook process) does, and that stopping it stops it.
 */
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmbedderV1 } from '../../src/spec/embedder.js';
import { Strata } from '../../src/strata.js';
import type { WorkerEvent } from '../../src/core/worker/background-worker.js';
import { fakeEmbedding } from '../support/fake-embeddings.js';
import { tempHome } from '../support/run-cli.js';

const embedder: EmbedderV1 = {
  specificationVersion: 'v1',
  id: 'test:bow',
  dimensions: 32,
  maxBatchSize: 16,
  supportsParallelCalls: false,
  distinguishesQueries: false,
  isRemote: false,
  doEmbed: async ({ texts }) => ({ embeddings: texts.map((t) => fakeEmbedding(t, 32)) }),
};

const say = (i: number, content: string) => ({
  role: i % 2 === 0 ? 'user' : 'assistant',
  content,
  timestamp: 1_771_996_735_000 + i * 1000,
});

let home: string;
let strata: Strata;
beforeEach(async () => {
  home = await tempHome({ embedder: { provider: 'none' }, distill: { scheduler: { everyMessages: 2, pollMs: 50, idleMs: 60_000 } } });
  strata = await Strata.open({ home, embedder });
});
afterEach(async () => {
  await strata.close();
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe('background worker', () => {
  it('embeds captured conversation and distils it after enough new messages, until stopped', async () => {
    const events: WorkerEvent[] = [];
    const worker = strata.createWorker({ onEvent: (e) => events.push(e) });
    worker.start();
    const messages = [say(0, 'I always use pnpm workspaces in this repo.'), say(1, 'Noted, pnpm workspaces it is.')];
    await strata.capture({ agentId: 'main', sessionKey: 'agent:main:main', messages });
    await expect.poll(async () => (await strata.conversationIndexStatus()).unembedded, { timeout: 20_000 }).toBe(0);
    // The scheduler reports a run after it (and the organiser) finished: wait for the report, not the rows.
    await expect
      .poll(() => events.some((e) => e.task === 'distill' && 'report' in e && e.report.admitted > 0), { timeout: 20_000 })
      .toBe(true);
    expect(await strata.count({ scopes: ['agent:main'] })).toBeGreaterThan(0);
    const embedded = () => events.reduce((n, e) => n + (e.task === 'conversations' && 'embedded' in e ? e.embedded : 0), 0);
    await expect.poll(embedded, { timeout: 20_000 }).toBe(2);
    expect(events.filter((e) => 'error' in e)).toEqual([]);
    // Vectors take part in conversation search now.
    expect((await strata.searchConversations({ query: 'pnpm workspaces', limit: 5 })).map((h) => h.record.role).sort()).toEqual([
      'assistant',
      'user',
    ]);
    await worker.stop();
    const seen = events.length;
    await strata.capture({
      agentId: 'main',
      sessionKey: 'agent:main:main',
      messages: [...messages, say(2, 'And we deploy with Kamal.'), say(3, 'Kamal, noted.')],
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toHaveLength(seen);
  });

  it("one pass (a hook's detached process): indexes what capture left behind, embeds, distils", async () => {
    // Appended to the L0 log by another process that died before indexing.
    await strata.l0.append({
      records: [
        {
          sessionKey: 'agent:main:main',
          sessionId: 's1',
          agentId: 'main',
          host: 'live',
          id: 'u1',
          role: 'user',
          content: 'I prefer tabs over spaces in Go code.',
          timestamp: 1_771_996_735_000,
          recordedAt: new Date().toISOString(),
        },
      ],
    });
    const report = await strata.createWorker({ summaries: false }).runOnce();
    expect(report.conversations).toEqual({ indexed: 1, embedded: 1, remaining: 0 });
    expect(report.distill?.messages.distilled).toBe(1);
    expect(report.errors).toEqual([]);
    expect(report.journal).toEqual([]);
    expect((await strata.searchConversations({ query: 'tabs', limit: 1 })).map((h) => h.record.id)).toEqual(['u1']);
  });
});
