import { describe, expect, it } from 'vitest';
import { StrataError } from '../../errors/index.js';
import type { MemoryFilter, RerankerV1, SearchHit, StoredMemory } from '../../spec/index.js';
import { createRecallPipeline, type RecallPipelineOptions } from './pipeline.js';
import { InMemoryMemoryStore, makeTestMemory } from '../../../test/support/memory-store.js';

// Hand-made 5-d "embeddings": axis 0 databases, 1 editors, 2 pets, 3 travel, 4 unrelated queries.
const memories: StoredMemory[] = [
  makeTestMemory({ id: 'db', text: 'The staging database is Postgres 16', vector: [1, 0, 0, 0, 0] }),
  makeTestMemory({ id: 'db-dup', text: 'the staging database is postgres 16!', vector: [0.99, 0.02, 0, 0, 0] }),
  makeTestMemory({ id: 'editor', text: 'User prefers Helix for editing code', category: 'preference', vector: [0, 1, 0, 0, 0] }),
  makeTestMemory({ id: 'pet', text: 'Caroline adopted a beagle named Oscar', vector: [0, 0, 1, 0, 0] }),
  makeTestMemory({ id: 'trip', text: 'Flight to Lisbon booked for the conference', vector: [0, 0, 0, 1, 0] }),
  makeTestMemory({
    id: 'other-scope',
    scope: 'agent:other',
    text: 'The staging database password rotates weekly',
    vector: [1, 0, 0, 0, 0],
  }),
  makeTestMemory({
    id: 'old-db',
    text: 'The staging database was MySQL 5',
    validTo: '2026-01-02T00:00:00.000Z',
    supersededBy: 'db',
    vector: [0.95, 0, 0, 0.1, 0],
  }),
];

const queryVectors: Record<string, number[]> = {
  'staging database': [1, 0, 0, 0, 0],
  'which dog does she have': [0, 0, 1, 0, 0],
  'what editor do I like': [0, 1, 0, 0, 0],
};
const embedQuery: RecallPipelineOptions['embedQuery'] = async ({ text }) => queryVectors[text] ?? [0, 0, 0, 0, 1];

function pipeline(options: Partial<RecallPipelineOptions> = {}) {
  const store = new InMemoryMemoryStore({ records: memories });
  return createRecallPipeline({ store, embedQuery, config: { scoring: { recencyWeight: 0 } }, ...options });
}
const ids = (r: { results: Array<{ record: { id: string } }> }) => r.results.map((x) => x.record.id);

describe('recall pipeline', () => {
  it('returns hybrid results with per-channel scores and timings', async () => {
    const r = await pipeline().recall({ query: 'staging database', scopes: ['global'] });
    expect(ids(r)[0]).toBe('db');
    expect(r.results[0]!.scores).toMatchObject({
      lexical: 1,
      vector: expect.closeTo(1),
      fused: expect.any(Number),
      final: r.results[0]!.score,
    });
    expect(r.timings).toMatchObject({
      total: expect.any(Number),
      lexical: expect.any(Number),
      embed: expect.any(Number),
      vector: expect.any(Number),
    });
  });

  it('finds a paraphrase through the vector channel alone', async () => {
    const r = await pipeline().recall({ query: 'which dog does she have', scopes: ['global'], explain: true });
    expect(ids(r)[0]).toBe('pet');
    expect(r.results[0]!.scores.lexical).toBeUndefined();
  });

  it('never returns a memory from a scope that was not asked for', async () => {
    const r = await pipeline().recall({ query: 'staging database password', scopes: ['global'], limit: 10, minScore: 0 });
    expect(ids(r)).not.toContain('other-scope');
    const other = await pipeline().recall({ query: 'staging database password', scopes: ['agent:other'], limit: 10, minScore: 0 });
    expect(ids(other)).toEqual(['other-scope']);
  });

  it('drops (and explains) hits a misbehaving store returns outside the filter', async () => {
    class LeakyStore extends InMemoryMemoryStore {
      override async searchText(options: { query: string; filter: MemoryFilter; limit: number }): Promise<SearchHit[]> {
        return super.searchText({ ...options, filter: { ...options.filter, scopes: ['global', 'agent:other'], includeHistory: true } });
      }
    }
    const store = new LeakyStore({ records: memories });
    const r = await createRecallPipeline({ store, embedQuery }).recall({
      query: 'staging database password',
      scopes: ['global'],
      limit: 10,
      minScore: 0,
      explain: true,
    });
    expect(ids(r)).not.toContain('other-scope');
    expect(ids(r)).not.toContain('old-db');
    expect(r.explain!.dropped).toEqual(
      expect.arrayContaining([
        { id: 'other-scope', stage: 'filter', reason: expect.stringContaining('agent:other') },
        { id: 'old-db', stage: 'filter', reason: expect.stringContaining('superseded') },
      ]),
    );
  });

  it('returns superseded memories only with includeHistory', async () => {
    const current = await pipeline().recall({ query: 'staging database MySQL', scopes: ['global'], limit: 10, minScore: 0 });
    expect(ids(current)).not.toContain('old-db');
    const history = await pipeline().recall({
      query: 'staging database MySQL',
      scopes: ['global'],
      limit: 10,
      minScore: 0,
      includeHistory: true,
    });
    expect(ids(history)).toContain('old-db');
  });

  it('honours a category filter', async () => {
    const r = await pipeline().recall({ query: 'Helix staging database', scopes: ['global'], categories: ['preference'], minScore: 0 });
    expect(ids(r)).toEqual(['editor']);
  });

  it('rejects missing or invalid scopes and bad options', async () => {
    const p = pipeline();
    await expect(p.recall({ query: 'x', scopes: [] })).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
    await expect(p.recall({ query: 'x', scopes: ['global', 'bogus scope'] })).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
    await expect(p.recall({ query: 'x', scopes: ['global'], limit: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'limit',
    });
    await expect(p.recall({ query: 'x', scopes: ['global'], categories: ['nope' as never] })).rejects.toSatisfy(StrataError.isInstance);
  });

  it('continues lexical-only when the embedder fails, and says so', async () => {
    const p = pipeline({
      embedQuery: async () => {
        throw new Error('model not loaded');
      },
    });
    const r = await p.recall({ query: 'staging database', scopes: ['global'], explain: true });
    expect(ids(r)[0]).toBe('db');
    expect(r.results[0]!.scores.vector).toBeUndefined();
    expect(r.explain!.channels.vector).toEqual({
      used: false,
      hits: 0,
      note: 'query embedding failed: model not loaded; continued lexical-only',
    });
    expect(r.explain!.notes).toContain('query embedding failed: model not loaded; continued lexical-only');
  });

  it('continues lexical-only when the embedder times out or returns null', async () => {
    const hanging = pipeline({ embedQuery: () => new Promise(() => undefined), config: { embedTimeoutMs: 30 } });
    const r = await hanging.recall({ query: 'staging database', scopes: ['global'], explain: true });
    expect(ids(r)[0]).toBe('db');
    expect(r.explain!.channels.vector.note).toMatch(/timed out after 30 ms/);
    const none = await pipeline({ embedQuery: async () => null }).recall({ query: 'staging database', scopes: ['global'], explain: true });
    expect(none.explain!.channels.vector.note).toMatch(/no query vector/);
  });

  it('never calls the embedder for a lexical-only store', async () => {
    let calls = 0;
    const store = new InMemoryMemoryStore({ records: memories, capabilities: { vectorSearch: false } });
    const p = createRecallPipeline({ store, embedQuery: async () => (calls++, [1, 0, 0, 0, 0]) });
    const r = await p.recall({ query: 'staging database', scopes: ['global'], explain: true });
    expect(calls).toBe(0);
    expect(ids(r)[0]).toBe('db');
    expect(r.explain!.channels.vector.note).toMatch(/no vector search/);
  });

  it('demotes a near-duplicate to the end instead of dropping it', async () => {
    const r = await pipeline().recall({ query: 'staging database Helix', scopes: ['global'], limit: 3, minScore: 0, explain: true });
    expect(ids(r)).toEqual(['db', 'editor', 'db-dup']);
    expect(r.explain!.candidates.find((c) => c.id === 'db-dup')!.demoted).toMatchObject({ similarTo: 'db' });
    const tight = await pipeline().recall({ query: 'staging database', scopes: ['global'], limit: 1, minScore: 0, explain: true });
    expect(ids(tight)).toEqual(['db']);
    expect(tight.explain!.dropped).toContainEqual({
      id: 'db-dup',
      stage: 'limit',
      reason: expect.stringContaining('near-duplicate of db'),
    });
  });

  it('drops results under minScore and explains every drop', async () => {
    // 'trip' holds 3 of the 4 query words, the database memories 1 (no vector for this query).
    const r = await pipeline().recall({ query: 'flight booked conference database', scopes: ['global'], minScore: 0.5, explain: true });
    expect(ids(r)).toEqual(['trip']);
    const drops = r.explain!.dropped.filter((d) => d.stage === 'min-score');
    expect(drops.map((d) => d.id).sort()).toEqual(['db', 'db-dup']);
    expect(drops[0]!.reason).toMatch(/< minScore 0.5/);
    expect(r.explain!.dropped).toContainEqual({ id: 'editor', stage: 'fusion', reason: expect.stringContaining('vectorFloor') });
    for (const d of r.explain!.dropped) {
      const c = r.explain!.candidates.find((x) => x.id === d.id)!;
      expect(c.dropped).toEqual({ stage: d.stage, reason: d.reason });
    }
    const nothing = await pipeline().recall({ query: 'staging database', scopes: ['global'], minScore: 5, explain: true });
    expect(nothing.results).toEqual([]);
  });

  it('explain reports each stage per returned candidate', async () => {
    const r = await pipeline().recall({ query: 'staging database', scopes: ['global'], explain: true });
    const first = r.explain!.candidates[0]!;
    expect(first).toMatchObject({
      id: 'db',
      lexical: { rank: 1, normalized: 1 },
      vector: { rank: expect.any(Number), score: expect.closeTo(1) },
      fused: { rank: 1 },
      scoring: { factors: { recency: 1, importance: expect.closeTo(1 / 1.15), access: 1, length: 1, form: 1, date: 1 } },
      final: { rank: 1 },
    });
    expect(r.explain!.query.cleaned).toBe('staging database');
    expect(r.explain!.fusion.method).toBe('calibrated');
    expect(first.meaning).toMatch(
      /^0\.\d\d = match 1\.00 \[words 1\.00 \(100% of query words, BM25 1\.00 of best\); meaning 1\.00 \(cosine 1\.00\)\] x importance 0\.87$/,
    );
    expect(r.explain!.scale).toMatch(/final score 0\.\.1/);
  });

  it('cleans the query before searching', async () => {
    const r = await pipeline().recall({
      query: '<relevant-memories>\n1. [fact] Helix editor\n</relevant-memories>\nstaging database',
      scopes: ['global'],
      explain: true,
    });
    expect(r.query).toBe('staging database');
    expect(r.explain!.query.removed).toEqual(['relevant-memories']);
    expect(ids(r)).not.toContain('editor');
    const empty = await pipeline().recall({ query: '<system-reminder>x</system-reminder>', scopes: ['global'], explain: true });
    expect(empty.results).toEqual([]);
    expect(empty.explain!.notes[0]).toMatch(/empty after cleanup/);
  });

  describe('with a reranker', () => {
    const byKeyword = (word: string): RerankerV1 => ({
      specificationVersion: 'v1',
      id: 'kw',
      maxDocuments: 50,
      doRerank: async ({ documents }) => ({ results: documents.map((d, index) => ({ index, score: d.includes(word) ? 1 : 0 })) }),
    });

    it('reorders by the blended rerank score', async () => {
      const options = { reranker: byKeyword('Helix'), config: { rerank: { protectKeep: 0 }, scoring: { recencyWeight: 0 } } };
      const query = { query: 'staging database editing', scopes: ['global'], limit: 3, minScore: 0, explain: true };
      const skipped = await pipeline(options).recall({ ...query, rerank: false });
      expect(ids(skipped)[0]).toBe('db');
      const r = await pipeline(options).recall(query);
      expect(ids(r)[0]).toBe('editor');
      expect(r.results[0]!.scores.rerank).toBe(1);
      expect(r.explain!.rerank).toMatchObject({ applied: true, reranker: 'kw' });
      expect(r.explain!.candidates[0]!.rerank).toMatchObject({ score: 1, rank: 1 });
      const disabled = { ...options, config: { ...options.config, rerank: { protectKeep: 0, enabled: false } } };
      expect(ids(await pipeline(disabled).recall(query))[0]).toBe('db');
      expect(ids(await pipeline(disabled).recall({ ...query, rerank: true }))[0]).toBe('editor');
    });

    it('keeps the fused order when the reranker times out', async () => {
      const hanging: RerankerV1 = {
        specificationVersion: 'v1',
        id: 'slow',
        maxDocuments: 50,
        doRerank: () => new Promise(() => undefined),
      };
      const query = { query: 'staging database booked conference', scopes: ['global'], limit: 3, minScore: 0, explain: true };
      const plain = await pipeline().recall(query);
      const r = await pipeline({ reranker: hanging, config: { rerank: { timeoutMs: 30 }, scoring: { recencyWeight: 0 } } }).recall(query);
      expect(ids(r)).toEqual(ids(plain));
      expect(r.explain!.rerank).toMatchObject({ applied: false, note: expect.stringMatching(/timed out after 30 ms; kept fused order/) });
      expect(r.explain!.notes).toContain(r.explain!.rerank.note);
    });
  });

  it('rejects when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(pipeline().recall({ query: 'staging database', scopes: ['global'], abortSignal: controller.signal })).rejects.toThrow(
      'cancelled',
    );
  });

  it('surfaces the store error when no channel can answer', async () => {
    class BrokenStore extends InMemoryMemoryStore {
      override async searchText(): Promise<SearchHit[]> {
        throw new Error('disk gone');
      }
    }
    const store = new BrokenStore({ records: memories, capabilities: { vectorSearch: false } });
    await expect(createRecallPipeline({ store, embedQuery }).recall({ query: 'staging database', scopes: ['global'] })).rejects.toThrow(
      'disk gone',
    );
  });

  it('rejects an invalid config at construction', () => {
    expect(() => pipeline({ config: { fusion: { method: 'nope' as never } } })).toThrow(/fusion\.method/);
  });
});
