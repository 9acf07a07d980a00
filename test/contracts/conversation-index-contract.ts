import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationDocument, ConversationIndexV2, L0Record } from '../../src/spec/index.js';

/**
 * The behaviour every ConversationIndexV2 backend must show. `create` makes a fresh, empty index;
 * `open` another handle on the same storage (another process, in effect). Vector tests run when
 * `dimensions` > 0. Backends that cannot do something list the tests in `skip` with the reason.
 */
export interface ConversationIndexContractOptions {
  name: string;
  create: () => Promise<{ index: ConversationIndexV2; open: () => Promise<ConversationIndexV2>; cleanup(): Promise<void> }>;
  dimensions: number;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const HOSTILE = [`x' OR '1'='1`, `') OR TRUE --`, `a\\' OR 1=1; DROP TABLE turns; --`, `%_*"\``];

export function turn(i: number, extra: Partial<L0Record> = {}): L0Record {
  return {
    sessionKey: 'agent:a:main',
    sessionId: 's1',
    agentId: 'a',
    host: 'openclaw',
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `message ${i}`,
    timestamp: 1_771_996_735_000 + i,
    recordedAt: '2026-02-25T05:18:55.000Z',
    ...extra,
  };
}

/** A turn's document: `text` is the lexical text, `embeddingText` (default: the same) what its vector describes. */
export function doc(i: number, text: string, extra: Partial<L0Record> = {}, embeddingText = text): ConversationDocument {
  const record = turn(i, { content: embeddingText, ...extra });
  return {
    id: JSON.stringify([record.host, record.agentId, record.sessionId, record.id]),
    record,
    position: `p${String(i).padStart(6, '0')}`,
    text,
    embeddingText,
  };
}

function unit(dimensions: number, axis: number, tilt = 0): number[] {
  const v = new Array<number>(dimensions).fill(0);
  v[axis % dimensions] = 1;
  v[(axis + 1) % dimensions] = tilt;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

export function runConversationIndexContract(options: ConversationIndexContractOptions): void {
  const D = options.dimensions;
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));
  const vectorTest = (name: string, fn: () => Promise<void>) => (D === 0 || skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`ConversationIndexV2 contract: ${options.name} (${D} dimensions)`, () => {
    let ctx: Awaited<ReturnType<ConversationIndexContractOptions['create']>>;
    let index: ConversationIndexV2;
    const ids = (hits: Array<{ document: ConversationDocument } | ConversationDocument>) =>
      hits.map((h) => ('document' in h ? h.document : h).record.id);

    beforeEach(async () => {
      ctx = await options.create();
      index = ctx.index;
      expect(await index.getMeta()).toBeNull();
      await index.initMeta({ embedderId: D > 0 ? 'test-embedder' : 'none', dimensions: D });
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    test('meta: records the embedder and rejects another one', async () => {
      expect(await index.getMeta()).toMatchObject({ embedderId: D > 0 ? 'test-embedder' : 'none', dimensions: D, schemaVersion: 3 });
      await expect(index.initMeta({ embedderId: 'other', dimensions: D + 1 })).rejects.toMatchObject({ code: 'EMBEDDER_MISMATCH' });
    });

    test('upsert: inserts, keeps unchanged documents, replaces changed ones; get and existingIds read them back', async () => {
      expect(await index.upsert({ documents: [doc(1, 'alpha'), doc(2, 'beta')] })).toEqual({ inserted: 2, updated: 0 });
      expect(await index.upsert({ documents: [doc(1, 'alpha'), doc(2, 'beta gamma')] })).toEqual({ inserted: 0, updated: 1 });
      const [one, two] = await index.get({ ids: [doc(1, '').id, doc(2, '').id, 'missing'] });
      expect(one).toMatchObject({ ...doc(1, 'alpha'), vector: null });
      expect(two?.text).toBe('beta gamma');
      expect(two?.record).toEqual(doc(2, 'beta gamma').record);
      expect(await index.existingIds({ ids: [doc(1, '').id, 'nope'] })).toEqual(new Set([doc(1, '').id]));
      expect(await index.count()).toBe(2);
    });

    test('watermark: absent at first, recorded by upsert, also without documents, and shared by handles', async () => {
      expect(await index.watermark()).toBeUndefined();
      await index.upsert({ documents: [doc(1, 'alpha')], watermark: 'p000001' });
      expect(await index.watermark()).toBe('p000001');
      await index.upsert({ documents: [], watermark: 'p000009' });
      const other = await ctx.open();
      try {
        expect(await other.watermark()).toBe('p000009');
        expect(await other.count()).toBe(1);
      } finally {
        await other.close();
      }
    });

    test("latestOfSessions: each session's last documents by position, in log order", async () => {
      await index.upsert({
        documents: [doc(3, 'c'), doc(1, 'a'), doc(2, 'b'), doc(4, 'other', { sessionId: 's2' }), doc(5, 'third', { agentId: 'b' })],
      });
      const latest = await index.latestOfSessions({
        sessions: [
          { host: 'openclaw', agentId: 'a', sessionId: 's1' },
          { host: 'openclaw', agentId: 'a', sessionId: 's2' },
        ],
        perSession: 2,
      });
      expect(ids(latest)).toEqual(['m2', 'm3', 'm4']);
      expect(ids(await index.latestOfSessions({ sessions: [{ host: 'openclaw', agentId: 'a', sessionId: 's1' }] }))).toEqual(['m3']);
      expect(await index.latestOfSessions({ sessions: [{ host: 'codex', agentId: "a' OR '1'='1", sessionId: 's1' }] })).toEqual([]);
    });

    test('searchText: finds by words, filters by agents, session and roles, and is safe with hostile input', async () => {
      await index.upsert({
        documents: [
          doc(1, 'the staging database lives on db-staging-2'),
          doc(2, 'production runs on db-prod-1'),
          doc(3, 'deploy the staging database on fridays', { agentId: 'ops', sessionKey: 'agent:ops:main' }),
          doc(4, 'summary: staging database discussed', { role: 'summary' }),
        ],
      });
      expect(ids(await index.searchText({ query: 'staging database', limit: 10, filter: {} })).sort()).toEqual(['m1', 'm3', 'm4']);
      const hits = await index.searchText({ query: 'staging', limit: 10, filter: { agentIds: ['a'], roles: ['user', 'assistant'] } });
      expect(ids(hits)).toEqual(['m1']);
      expect(hits[0]!.score).toBeGreaterThan(0);
      expect(hits[0]!.document).toEqual(doc(1, 'the staging database lives on db-staging-2'));
      expect(ids(await index.searchText({ query: 'staging', limit: 10, filter: { sessionKey: 'agent:ops:main' } }))).toEqual(['m3']);
      expect(await index.searchText({ query: 'staging', limit: 10, filter: { agentIds: [] } })).toEqual([]);
      expect(await index.searchText({ query: '   ', limit: 10, filter: {} })).toEqual([]);
      for (const bad of HOSTILE) {
        expect(await index.searchText({ query: bad, limit: 5, filter: { agentIds: [bad], sessionKey: bad } })).toEqual([]);
      }
      expect(await index.count()).toBe(4);
      await expect(index.searchText({ query: 'x', limit: 0, filter: {} })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    test('count: by filter and by embedding state', async () => {
      await index.upsert({ documents: [doc(1, 'a'), doc(2, 'b', { agentId: 'b' }), doc(3, 'c', { role: 'tool' })] });
      expect(await index.count({ filter: { agentIds: ['a'] } })).toBe(2);
      expect(await index.count({ filter: { roles: ['tool'] } })).toBe(1);
      expect(await index.count({ embedded: false })).toBe(D > 0 ? 3 : 0);
    });

    vectorTest('vectors: unembedded lists documents without one; setVectors ignores an embedding text changed meanwhile', async () => {
      await index.upsert({ documents: [doc(1, 'alpha'), doc(2, 'beta')] });
      expect(ids(await index.unembedded({ limit: 10 })).sort()).toEqual(['m1', 'm2']);
      expect((await index.unembedded({ limit: 10 })).find((d) => d.record.id === 'm1')?.embeddingText).toBe('alpha');
      await index.upsert({ documents: [doc(2, 'beta changed')] });
      const set = await index.setVectors({
        vectors: [
          { id: doc(1, '').id, embeddingText: 'alpha', vector: unit(D, 0) },
          { id: doc(2, '').id, embeddingText: 'beta', vector: unit(D, 1) },
        ],
      });
      expect(set).toEqual({ updated: 1 });
      expect(ids(await index.unembedded({ limit: 10 }))).toEqual(['m2']);
      const [stored] = await index.get({ ids: [doc(1, '').id], withVectors: true });
      expect(stored!.vector!.map((x) => Math.round(x * 1000) / 1000)).toEqual(unit(D, 0));
      // Rewriting a document's embedding text drops its vector: it described the old words.
      await index.upsert({ documents: [doc(1, 'alpha, edited')] });
      expect((await index.get({ ids: [doc(1, '').id], withVectors: true }))[0]!.vector).toBeNull();
      expect(await index.count({ embedded: true })).toBe(0);
    });

    vectorTest('searchVector: nearest embedded documents first, with cosine scores and filters', async () => {
      await index.upsert({ documents: [doc(1, 'a'), doc(2, 'b'), doc(3, 'c', { agentId: 'b' }), doc(4, 'no vector')] });
      await index.setVectors({
        vectors: [
          { id: doc(1, '').id, embeddingText: 'a', vector: unit(D, 0) },
          { id: doc(2, '').id, embeddingText: 'b', vector: unit(D, 0, 1) },
          { id: doc(3, '', { agentId: 'b' }).id, embeddingText: 'c', vector: unit(D, 0) },
        ],
      });
      const hits = await index.searchVector({ vector: unit(D, 0), limit: 10, filter: { agentIds: ['a'] } });
      expect(ids(hits)).toEqual(['m1', 'm2']);
      expect(hits[0]!.score).toBeCloseTo(1, 3);
      expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2, 3);
      expect(hits[0]!.vector?.map((x) => Math.round(x * 1000) / 1000)).toEqual(unit(D, 0));
      expect(ids(await index.searchVector({ vector: unit(D, 0), limit: 1, filter: {} }))).toHaveLength(1);
      expect(await index.searchVector({ vector: unit(D, 0), limit: 5, filter: { agentIds: [] } })).toEqual([]);
    });

    vectorTest(
      'vectors: a new lexical text with the same embedding text keeps the vector (a new neighbour costs no embedding)',
      async () => {
        await index.upsert({ documents: [doc(1, 'user: alpha', {}, 'alpha')] });
        await index.setVectors({ vectors: [{ id: doc(1, '').id, embeddingText: 'alpha', vector: unit(D, 2) }] });
        expect(await index.upsert({ documents: [doc(1, 'user: alpha\nassistant: beta follows', {}, 'alpha')] })).toEqual({
          inserted: 0,
          updated: 1,
        });
        const [stored] = await index.get({ ids: [doc(1, '').id], withVectors: true });
        expect(stored!.text).toBe('user: alpha\nassistant: beta follows');
        expect(stored!.vector!.map((x) => Math.round(x * 1000) / 1000)).toEqual(unit(D, 2));
        expect(await index.unembedded({ limit: 10 })).toEqual([]);
        // The new lexical text is what full-text search finds; `withVectors` brings the vector along.
        const [hit] = await index.searchText({ query: 'follows', limit: 5, filter: {}, withVectors: true });
        expect(hit?.document.id).toBe(doc(1, '').id);
        expect(hit?.vector?.map((x) => Math.round(x * 1000) / 1000)).toEqual(unit(D, 2));
      },
    );

    test('withWriteLock: holders never overlap', async () => {
      const events: string[] = [];
      const hold = (name: string) =>
        index.withWriteLock(async () => {
          events.push(`${name}+`);
          await new Promise((r) => setTimeout(r, 30));
          events.push(`${name}-`);
        });
      await Promise.all([hold('a'), hold('b')]);
      expect([events.slice(0, 2), events.slice(2)].map((p) => p.map((e) => e.slice(1)))).toEqual([
        ['+', '-'],
        ['+', '-'],
      ]);
    });

    test('withWriteLock: a bounded wait gives up with STORE_LOCKED while another handle holds it', async () => {
      const other = await ctx.open();
      let release!: () => void;
      const holding = new Promise<void>((r) => (release = r));
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const holder = other.withWriteLock(async () => {
        entered();
        await holding;
      });
      try {
        await inside;
        let ran = false;
        await expect(index.withWriteLock(async () => void (ran = true), { timeoutMs: 100 })).rejects.toMatchObject({
          code: 'STORE_LOCKED',
        });
        expect(ran).toBe(false);
      } finally {
        release();
        await holder;
        await other.close();
      }
      expect(await index.withWriteLock(async () => 'free', { timeoutMs: 5_000 })).toBe('free');
    });

    test('optimize: documents stay searchable before and after, forced or not', async () => {
      await index.upsert({ documents: [doc(1, 'lemon tart recipe')] });
      expect(typeof (await index.optimize())).toBe('boolean');
      await index.upsert({ documents: [doc(2, 'lemon curd')] });
      await index.optimize({ force: true });
      await index.upsert({ documents: [doc(3, 'lemon sorbet')] });
      expect(ids(await index.searchText({ query: 'lemon', limit: 10, filter: {} })).sort()).toEqual(['m1', 'm2', 'm3']);
      expect(await index.count()).toBe(3);
    });

    test('reset: drops documents, watermark and meta', async () => {
      await index.upsert({ documents: [doc(1, 'alpha')], watermark: 'p000001' });
      await index.reset();
      expect(await index.getMeta()).toBeNull();
      expect(await index.watermark()).toBeUndefined();
      await index.initMeta({ embedderId: 'another', dimensions: D });
      expect(await index.count()).toBe(0);
      expect(await index.searchText({ query: 'alpha', limit: 5, filter: {} })).toEqual([]);
    });
  });
}
