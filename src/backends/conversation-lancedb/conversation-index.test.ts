import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { L0Record } from '../../spec/conversation.js';
import type { EmbedderV1 } from '../../spec/embedder.js';
import { tempDir } from '../../../test/capture/helpers.js';
import { indexL0Log } from '../../capture/index-sync.js';
import { L0Log } from '../../capture/l0-log.js';
import { openLanceConversationIndex } from './index.js';

/** A real (if crude) embedder: hashed bag of words, so similar texts get similar vectors. */
function bagOfWordsEmbedder(dimensions = 64): EmbedderV1 & { calls: number } {
  const e = {
    specificationVersion: 'v1' as const, id: 'test:bow', dimensions, maxBatchSize: 8, supportsParallelCalls: false,
    distinguishesQueries: false, isRemote: false, calls: 0,
    async doEmbed(options: { texts: string[] }) {
      e.calls += 1;
      return {
        embeddings: options.texts.map((t) => {
          const v = new Array<number>(dimensions).fill(0);
          for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
            let h = 0;
            for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
            v[h % dimensions]! += 1;
          }
          const norm = Math.hypot(...v) || 1;
          return v.map((x) => x / norm);
        }),
      };
    },
  };
  return e;
}

const rec = (id: string, content: string, extra: Partial<L0Record> = {}): L0Record => ({
  sessionKey: 'agent:main:main', sessionId: 's1', agentId: 'main', host: 'openclaw', id, role: 'user', content, timestamp: 1_700_000_000_000,
  recordedAt: '2026-11-21T00:00:00.000Z', ...extra,
});

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('LanceDB conversation index', () => {
  it('indexes full text at once, ignores records already present, filters by agent and session', async () => {
    const index = await openLanceConversationIndex({ dir: join(tmp.dir, 'idx') });
    try {
      expect((await index.add({ records: [rec('a', 'the staging database lives on db-staging-2'), rec('b', 'production runs on db-prod-1')] })).added).toBe(2);
      expect((await index.add({ records: [rec('a', 'the staging database lives on db-staging-2'), rec('c', 'deploy on fridays is forbidden', { agentId: 'ops', sessionKey: 'agent:ops:main' })] })).added).toBe(1);
      expect(await index.count()).toBe(3);
      const hits = await index.search({ query: 'database', limit: 5 });
      expect(hits.map((h) => h.record.id).sort()).toEqual(['a']);
      expect(hits[0]!.record).toEqual(rec('a', 'the staging database lives on db-staging-2'));
      expect((await index.search({ query: 'deploy', limit: 5, agentId: 'main' }))).toEqual([]);
      expect((await index.search({ query: 'deploy', limit: 5, sessionKey: "agent:ops:main" })).map((h) => h.record.id)).toEqual(['c']);
      expect(await index.search({ query: "x' OR '1'='1", limit: 5, agentId: "main' OR '1'='1" })).toEqual([]);
      expect(await index.embedPending()).toEqual({ embedded: 0, remaining: 0 });
    } finally {
      await index.close();
    }
  });

  it('embeds in background batches and then fuses vector with text results', async () => {
    const embedder = bagOfWordsEmbedder();
    const dir = join(tmp.dir, 'idx');
    const index = await openLanceConversationIndex({ dir, embedder });
    try {
      const records = Array.from({ length: 20 }, (_, i) => rec(`m${i}`, i === 7 ? 'my cat is called whiskers and loves tuna' : `routine note number ${i} about builds`));
      await index.add({ records });
      expect(embedder.calls).toBe(0); // add never waits on the embedder
      expect(await index.embedPending({ batchSize: 12 })).toEqual({ embedded: 12, remaining: 8 });
      expect(await index.embedPending({ batchSize: 12 })).toEqual({ embedded: 8, remaining: 0 });
      const hits = await index.search({ query: 'whiskers cat tuna', limit: 3 });
      expect(hits[0]!.record.id).toBe('m7');
    } finally {
      await index.close();
    }
    await expect(openLanceConversationIndex({ dir })).rejects.toThrow(/built with embedder test:bow/);
  });
});

describe('indexL0Log', () => {
  it('backfills the index from the L0 log, idempotently', async () => {
    const home = join(tmp.dir, 'home');
    await new L0Log({ home }).append({ records: [rec('a', 'alpha beta'), rec('b', 'gamma delta')] });
    const index = await openLanceConversationIndex({ dir: join(home, 'conversations', 'index') });
    try {
      expect(await indexL0Log({ home, index })).toEqual({ read: 2, added: 2 });
      expect(await indexL0Log({ home, index })).toEqual({ read: 2, added: 0 });
      expect((await index.search({ query: 'gamma', limit: 2 })).map((h) => h.record.id)).toEqual(['b']);
    } finally {
      await index.close();
    }
  });
});
