import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonlL0Log } from '../../src/backends/l0-jsonl/index.js';
import type { EmbedderV1 } from '../../src/spec/embedder.js';
import type { L0LogV1, L0Record } from '../../src/spec/index.js';
import { DEFAULT_RECALL_CONFIG } from '../../src/core/recall/config.js';
import { createEmbeddingService } from '../../src/core/embedding/embedding-service.js';
import { fakeEmbedding } from '../support/fake-embeddings.js';
import {
  MemoryConversationIndex,
  memoryConversationStorage,
  type MemoryConversationStorage,
} from '../support/memory-conversation-index.js';
import { conversationDocumentId, type BuildTurnDocument } from '../../src/core/conversations/document.js';
import { ConversationIndexer } from '../../src/core/conversations/indexer.js';
import { searchConversationIndex } from '../../src/core/conversations/search.js';

const turn = (i: number, content: string, extra: Partial<L0Record> = {}): L0Record => ({
  sessionKey: 'agent:a:main',
  sessionId: 's1',
  agentId: 'a',
  host: 'live',
  id: `t${i}`,
  role: i % 2 === 0 ? 'user' : 'assistant',
  content,
  timestamp: 1_771_996_735_000 + i * 1000,
  recordedAt: new Date().toISOString(),
  ...extra,
});

function embedder(dimensions = 32): EmbedderV1 & { calls: number } {
  const e = {
    specificationVersion: 'v1' as const,
    id: 'test:bow',
    dimensions,
    maxBatchSize: 16,
    supportsParallelCalls: false,
    distinguishesQueries: false,
    isRemote: false,
    calls: 0,
    async doEmbed(options: { texts: string[] }) {
      e.calls += 1;
      return { embeddings: options.texts.map((t) => fakeEmbedding(t, dimensions)) };
    },
  };
  return e;
}

let home: string;
let l0: L0LogV1;
let storage: MemoryConversationStorage;
const indexerOf = (options: { buildDocument?: BuildTurnDocument; embedderId?: string; dimensions?: number; pageSize?: number } = {}) =>
  new ConversationIndexer({ l0, index: new MemoryConversationIndex(storage), embedderId: 'none', dimensions: 0, ...options });

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'strata-indexer-'));
  l0 = createJsonlL0Log({ home });
  storage = memoryConversationStorage();
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe('ConversationIndexer', () => {
  it('follows the log by its watermark: a crash between the log append and the index write is caught up', async () => {
    const indexer = indexerOf({ pageSize: 2 });
    await l0.append({ records: [turn(0, 'alpha'), turn(1, 'beta'), turn(2, 'gamma')] });
    expect(await indexer.status()).toMatchObject({ behind: 3, documents: 0, watermark: undefined });
    const first = await indexer.catchUp();
    expect(first).toMatchObject({ read: 3, inserted: 3, done: true });
    expect(storage.watermark).toBe((await l0.read()).end);
    // Appended, then the process died before indexing: the next catch-up starts at the watermark.
    await l0.append({ records: [turn(3, 'delta')] });
    expect((await indexer.status()).behind).toBe(1);
    expect(await indexer.catchUp()).toMatchObject({ read: 1, inserted: 1 });
    expect(await indexer.catchUp()).toMatchObject({ read: 0, inserted: 0, updated: 0 });
    expect(await indexer.status({ verify: true })).toMatchObject({ behind: 0, missing: 0, entries: 4, documents: 4 });
  });

  it('budgets stop a catch-up early; the rest follows on the next one', async () => {
    await l0.append({ records: Array.from({ length: 9 }, (_, i) => turn(i, `text ${i}`)) });
    const indexer = indexerOf({ pageSize: 2 });
    expect(await indexer.catchUp({ maxEntries: 3 })).toMatchObject({ read: 4, done: false });
    expect((await indexer.status()).behind).toBe(5);
    expect(await indexer.catchUp()).toMatchObject({ read: 5, done: true });
  });

  it('a budgeted catch-up does not wait out another writer: it reports the index as locked', async () => {
    await l0.append({ records: [turn(0, 'alpha')] });
    const indexer = indexerOf();
    let release!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    const holder = new MemoryConversationIndex(storage).withWriteLock(() => holding);
    expect(await indexer.catchUp({ budgetMs: 30 })).toMatchObject({ locked: true, read: 0, done: false });
    const waiting = indexer.catchUp();
    release();
    await holder;
    expect(await waiting).toMatchObject({ read: 1, done: true });
  });

  it("rebuilds a turn's document when its successor arrives, across pages and runs", async () => {
    const buildDocument: BuildTurnDocument = ({ turn: t, previous, next, sessionDate }) => ({
      text: [previous?.content ?? '-', t.content, next?.content ?? '-', sessionDate].join(' | '),
      embeddingText: t.content,
    });
    const indexer = indexerOf({ buildDocument, pageSize: 2 });
    await l0.append({ records: [turn(0, 'q1'), turn(1, 'a1'), turn(2, 'q2'), turn(0, 'other session', { sessionId: 's2' })] });
    await indexer.catchUp();
    const text = (i: number, sessionId = 's1') => storage.rows.get(conversationDocumentId(turn(i, '', { sessionId })))?.text;
    expect(text(0)).toBe('- | q1 | a1 | 2026-02-25');
    expect(text(1)).toBe('q1 | a1 | q2 | 2026-02-25');
    expect(text(2)).toBe('a1 | q2 | - | 2026-02-25');
    expect(text(0, 's2')).toBe('- | other session | - | 2026-02-25');
    // A later run: the predecessor comes from the index, and its vector is dropped with its old text.
    await l0.append({ records: [turn(3, 'a2')] });
    expect(await indexer.catchUp()).toMatchObject({ read: 1, inserted: 1, updated: 1 });
    expect(text(2)).toBe('a1 | q2 | a2 | 2026-02-25');
    expect(text(3)).toBe('q2 | a2 | - | 2026-02-25');
    // A rebuild from the start yields the same documents.
    expect(await indexer.catchUp({ fromStart: true })).toMatchObject({ read: 5, inserted: 0, updated: 0 });
  });

  it('`fromStart` repairs documents lost behind the watermark; `status({ verify })` finds them', async () => {
    await l0.append({ records: [turn(0, 'alpha'), turn(1, 'beta')] });
    const indexer = indexerOf();
    await indexer.catchUp();
    storage.rows.delete(conversationDocumentId(turn(0, '')));
    expect(await indexer.status({ verify: true })).toMatchObject({ behind: 0, missing: 1 });
    expect(await indexer.catchUp()).toMatchObject({ inserted: 0 });
    expect(await indexer.catchUp({ fromStart: true })).toMatchObject({ read: 2, inserted: 1 });
    expect((await indexer.status({ verify: true })).missing).toBe(0);
  });

  it('an index built by another embedder is rebuilt from the log', async () => {
    await l0.append({ records: [turn(0, 'alpha')] });
    await indexerOf().catchUp();
    const other = indexerOf({ embedderId: 'test:bow', dimensions: 32 });
    expect((await other.status()).rebuildNeeded).toBe(true);
    expect(await other.catchUp()).toMatchObject({ rebuilt: true, read: 1, inserted: 1 });
    expect(storage.meta).toMatchObject({ embedderId: 'test:bow', dimensions: 32 });
  });

  it('embeds pending documents through the embedding service; search fuses text and vectors and leaves summaries out', async () => {
    const e = embedder();
    const embeddings = createEmbeddingService({ embedder: e });
    const indexer = indexerOf({ embedderId: e.id, dimensions: e.dimensions });
    await l0.append({
      records: [
        turn(0, 'the deploy pipeline runs on buildkite'),
        turn(1, 'our cat is called whiskers'),
        turn(2, 'summary: deploys and cats', { role: 'summary' }),
        turn(3, 'whiskers likes tuna', { agentId: 'b', sessionKey: 'agent:b:main' }),
      ],
    });
    await indexer.catchUp();
    expect(await indexer.embedPending({ embeddings, batchSize: 3 })).toEqual({ embedded: 4, remaining: 0 });
    const index = new MemoryConversationIndex(storage);
    const search = (query: string, extra: Partial<Parameters<typeof searchConversationIndex>[0]> = {}) =>
      searchConversationIndex({ index, query, embedQuery: (o) => embeddings.embedQuery(o), config: DEFAULT_RECALL_CONFIG, ...extra }).then(
        (h) => h.map((x) => x.record.id),
      );
    // t0 is found too, by its neighbour's words, below the turns that say it themselves.
    const whiskers = await search('whiskers');
    expect(whiskers.slice(0, 2).sort()).toEqual(['t1', 't3']);
    expect(whiskers).toContain('t0');
    expect(await search('whiskers', { agentIds: ['a'] })).toEqual(['t1', 't0']);
    expect(await search('deploys cats')).not.toContain('t2');
    expect(await search('deploys cats', { roles: ['summary'] })).toEqual(['t2']);
    expect(await search('whiskers', { agentIds: [] })).toEqual([]);
    await expect(search('x', { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
