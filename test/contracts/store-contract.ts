import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/errors/index.js';
import type { MemoryFilter, MemoryStoreV1, StoredMemory } from '../../src/spec/index.js';
import { contentHash, expectVectorClose, makeRecord } from '../fixtures/store/records.js';

/**
 * The behaviour every MemoryStoreV1 backend must show. A backend test file calls
 * `runStoreContract` with a factory that makes a fresh, empty store (and removes it in cleanup).
 * Backends that cannot do something list the test names in `skip` with the reason.
 */
export interface StoreContractOptions {
  name: string;
  create: () => Promise<{ store: MemoryStoreV1; cleanup(): Promise<void> }>;
  /** Vector size the suite initialises the store with; 0 runs it lexical-only. */
  dimensions: number;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const HOSTILE = [`x' OR '1'='1`, `') OR TRUE --`, `a\\' OR 1=1; DROP TABLE memories; --`, `%_*"\``, `global' UNION SELECT * --`];

export function runStoreContract(options: StoreContractOptions): void {
  const D = options.dimensions;
  const embedderId = D > 0 ? 'test-embedder' : 'none';
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));
  const vectorTest = (name: string, fn: () => Promise<void>) => (D === 0 || skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`MemoryStoreV1 contract: ${options.name} (${D} dimensions)`, () => {
    let store: MemoryStoreV1;
    let cleanup: () => Promise<void>;
    const rec = (overrides: Partial<StoredMemory> = {}) => makeRecord({ dimensions: D, ...overrides });
    const scopes = (...s: string[]): MemoryFilter => ({ scopes: s });
    const ids = (records: Array<{ id: string }>) => records.map((r) => r.id).sort();

    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
      await store.initMeta({ embedderId, dimensions: D });
    });
    afterEach(async () => {
      await cleanup();
    });

    test('meta: records the embedder and rejects a different one', async () => {
      const meta = await store.getMeta();
      expect(meta).toMatchObject({ embedderId, dimensions: D });
      expect(await store.initMeta({ embedderId, dimensions: D })).toMatchObject({ embedderId, dimensions: D });
      const mismatch = await store.initMeta({ embedderId: 'other-embedder', dimensions: D + 3 }).catch((e: unknown) => e);
      expect(StrataError.isInstance(mismatch) && mismatch.code).toBe('EMBEDDER_MISMATCH');
      expect((mismatch as Error).message).toContain('strata reembed');
      expect((mismatch as Error).message).toContain(embedderId);
      const dimsOnly = await store.initMeta({ embedderId, dimensions: D + 1 }).catch((e: unknown) => e);
      expect(StrataError.isInstance(dimsOnly) && dimsOnly.code).toBe('EMBEDDER_MISMATCH');
      expect(await store.getMeta()).toEqual(meta);
    });

    test('insert/get: round-trips every field, vectors only when asked', async () => {
      const a = rec({
        text: 'full record',
        category: 'preference',
        scope: 'agent:a1',
        importance: 0.25,
        confidence: 0.75,
        tags: ['t1', 't2'],
        source: { kind: 'capture', agentId: 'a1', sessionKey: 's1', messageIds: ['m1', 'm2'] },
        validTo: '2025-06-01T00:00:00.000Z',
        supersedes: 'OLD',
        supersededBy: 'NEW',
        accessCount: 3,
        lastAccessedAt: '2025-05-01T00:00:00.000Z',
      });
      const b = rec();
      await store.insert({ records: [a, b] });
      const [gotB, gotA] = await store.get({ ids: [b.id, 'missing', a.id] });
      const { vector: vecA, ...restA } = a;
      expect(gotA).toMatchObject(restA);
      expect(gotB?.id).toBe(b.id);
      expect(gotA?.vector ?? null).toBeNull();
      const [withVec] = await store.get({ ids: [a.id], withVectors: true });
      expect(expectVectorClose(withVec?.vector ?? null, vecA)).toBe(true);
      expect(await store.get({ ids: [] })).toEqual([]);
    });

    test('insert: concurrent first writes on one store object all land', async () => {
      const records = Array.from({ length: 8 }, () => rec());
      await Promise.all(records.map((r) => store.insert({ records: [r] })));
      expect(await store.count({ filter: scopes('global') })).toBe(8);
    });

    test('insert: a bad batch writes nothing', async () => {
      const good = rec();
      // One dimension too many: wrong for a vector store, and any vector is wrong for a lexical-only one.
      const bad = rec({ vector: new Array<number>(D + 1).fill(0.1) });
      await expect(store.insert({ records: [good, bad] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store.insert({ records: [good, { ...good }] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(await store.existingIds({ ids: [good.id, bad.id] })).toEqual(new Set());
    });

    test('update: replaces whole records, keeps the vector when none is given, rejects unknown ids', async () => {
      const a = rec({ text: 'original text', tags: ['x'] });
      await store.insert({ records: [a] });
      const changed = { ...a, text: 'changed text', tags: ['y'], validTo: '2026-01-01T00:00:00.000Z', vector: null };
      await store.update({ records: [changed] });
      const [got] = await store.get({ ids: [a.id], withVectors: true });
      expect(got).toMatchObject({ text: 'changed text', tags: ['y'], validTo: '2026-01-01T00:00:00.000Z' });
      expect(expectVectorClose(got?.vector ?? null, a.vector)).toBe(true);
      await expect(store.update({ records: [{ ...a, text: 'nope' }, rec()] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await store.get({ ids: [a.id] }))[0]?.text).toBe('changed text');
      expect(await store.count({ filter: { scopes: ['global'], includeHistory: true } })).toBe(1);
    });

    test('delete: removes only the given ids and reports the count', async () => {
      const [a, b, c] = [rec(), rec(), rec()];
      await store.insert({ records: [a!, b!, c!] });
      expect(await store.delete({ ids: [a!.id, c!.id, 'missing'] })).toBe(2);
      expect(await store.delete({ ids: [a!.id] })).toBe(0);
      expect(ids(await store.get({ ids: [a!.id, b!.id, c!.id] }))).toEqual([b!.id]);
    });

    test('existingIds and findByHash stay within what was asked', async () => {
      const a = rec({ text: 'same text', scope: 'user:u1' });
      const b = rec({ text: 'same text', scope: 'user:u2' });
      await store.insert({ records: [a, b] });
      expect(await store.existingIds({ ids: [a.id, 'nope'] })).toEqual(new Set([a.id]));
      const found = await store.findByHash({ scope: 'user:u1', contentHashes: [contentHash('same text'), contentHash('other')] });
      expect(found.map((r) => r.id)).toEqual([a.id]);
      expect(await store.findByHash({ scope: 'user:u3', contentHashes: [a.contentHash] })).toEqual([]);
    });

    test('list: newest first, pagination covers every row once, oldest order', async () => {
      const records = Array.from({ length: 25 }, () => rec());
      await store.insert({ records });
      const pages = [];
      for (let offset = 0; offset < 30; offset += 10) pages.push(...(await store.list({ filter: scopes('global'), limit: 10, offset })));
      expect(pages.map((r) => r.id)).toEqual(records.map((r) => r.id).reverse());
      const oldest = await store.list({ filter: scopes('global'), limit: 3, order: 'oldest' });
      expect(oldest.map((r) => r.id)).toEqual(records.slice(0, 3).map((r) => r.id));
      expect(oldest[0]).not.toHaveProperty('vector');
    });

    test('filters: scopes, categories, history, tags, ids, dates, source kind', async () => {
      const a = rec({ scope: 'user:u1', category: 'preference', tags: ['food', 'morning'], source: { kind: 'capture' } });
      const b = rec({ scope: 'user:u1', category: 'fact', tags: ['work'], validTo: '2025-02-01T00:00:00.000Z' });
      const c = rec({ scope: 'user:u2', category: 'rule' });
      const d = rec({ scope: 'global', category: 'preference', tags: ['food'] });
      await store.insert({ records: [a, b, c, d] });
      const q = async (filter: MemoryFilter) => ids(await store.list({ filter, limit: 100 }));
      expect(await q(scopes('user:u1'))).toEqual([a.id]);
      expect(await q({ scopes: ['user:u1'], includeHistory: true })).toEqual(ids([a, b]));
      expect(await q({ scopes: ['user:u1', 'user:u2', 'global'], categories: ['preference'] })).toEqual(ids([a, d]));
      expect(await q({ scopes: ['user:u1', 'global'], categories: [] })).toEqual([]);
      expect(await q({ scopes: ['user:u1', 'user:u2', 'global'], tags: ['food', 'nothing'] })).toEqual(ids([a, d]));
      expect(await q({ scopes: ['user:u1', 'user:u2', 'global'], includeHistory: true, ids: [b.id, c.id] })).toEqual(ids([b, c]));
      expect(await q({ scopes: ['user:u1', 'user:u2', 'global'], createdAfter: a.createdAt, createdBefore: d.createdAt })).toEqual([c.id]);
      expect(await q({ scopes: ['user:u1', 'user:u2', 'global'], sourceKind: 'capture' })).toEqual([a.id]);
      expect(await store.count({ filter: { scopes: ['user:u1', 'user:u2', 'global'], includeHistory: true } })).toBe(4);
      expect(await store.count({ filter: scopes('user:u2') })).toBe(1);
    });

    test('an empty scope set is rejected by every read, never read as "everything"', async () => {
      await store.insert({ records: [rec()] });
      const empty = { scopes: [] };
      const calls = [
        store.list({ filter: empty, limit: 10 }),
        store.count({ filter: empty }),
        store.searchText({ query: 'memory', filter: empty, limit: 10 }),
        store.searchVector({ vector: new Array<number>(D).fill(0.1), filter: empty, limit: 10 }),
      ];
      for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
      await expect(
        (async () => {
          for await (const _ of store.scan({ scopes: [] })) break;
        })(),
      ).rejects.toMatchObject({ code: 'INVALID_SCOPE' });
    });

    test('hostile scope, id, tag and query values neither leak rows nor break the store', async () => {
      const secret = rec({ scope: 'user:secret', text: 'secret payroll numbers', tags: ['t'] });
      const hostileRows = HOSTILE.map((h) => rec({ scope: h, id: `${h}-id`, text: `hostile ${h}`, tags: [h] }));
      await store.insert({ records: [secret, ...hostileRows] });
      for (const h of HOSTILE) {
        const filter = { scopes: [h], includeHistory: true };
        const settle = async <T>(p: Promise<T>): Promise<T | []> =>
          p.catch((e: unknown) => {
            expect(StrataError.isInstance(e)).toBe(true);
            return [] as [];
          });
        const listed = await settle(store.list({ filter, limit: 100 }));
        expect(listed.map((r) => r.id)).toEqual([`${h}-id`]);
        expect(await store.count({ filter })).toBe(1);
        expect((await store.get({ ids: [h, `${h}-id`] })).map((r) => r.id)).toEqual([`${h}-id`]);
        expect(await store.get({ ids: [`${secret.id}' OR '1'='1`] })).toEqual([]);
        const text = await settle(store.searchText({ query: h, filter: scopes('user:nobody'), limit: 10 }));
        expect(text).toEqual([]);
        const byTag = await settle(store.list({ filter: { scopes: ['user:secret', h], tags: [h] }, limit: 10 }));
        expect(byTag.map((r) => r.id)).toEqual([`${h}-id`]);
        expect(await store.findByHash({ scope: h, contentHashes: [secret.contentHash] })).toEqual([]);
        expect(await store.delete({ ids: [`${h}' OR '1'='1`] })).toBe(0);
      }
      expect(await store.count({ filter: scopes('user:secret') })).toBe(1);
    });

    test('searchText: English keywords match stemmed forms with BM25 scores', async () => {
      const prefer = rec({ text: 'I prefer dark roast coffee in the morning' });
      const preferred = rec({ text: 'My preferred editor is vim' });
      const other = rec({ text: 'The deployment runs on Kubernetes' });
      await store.insert({ records: [prefer, preferred, other] });
      const hits = await store.searchText({ query: 'preferences', filter: scopes('global'), limit: 10 });
      expect(ids(hits.map((h) => h.record))).toEqual(ids([prefer, preferred]));
      expect(hits.every((h) => h.score > 0)).toBe(true);
      expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
      expect(hits[0]!.record).not.toHaveProperty('vector');
      expect((await store.searchText({ query: 'kubernetes deploy', filter: scopes('global'), limit: 10 })).map((h) => h.record.id)).toEqual(
        [other.id],
      );
      expect(await store.searchText({ query: '   ', filter: scopes('global'), limit: 10 })).toEqual([]);
    });

    test('searchText: Chinese and Japanese keywords', async () => {
      const zh = rec({ text: '我每天早上喝咖啡' });
      const ja = rec({ text: '私は毎朝コーヒーを飲みます' });
      const en = rec({ text: 'coffee every morning' });
      await store.insert({ records: [zh, ja, en] });
      expect((await store.searchText({ query: '咖啡', filter: scopes('global'), limit: 10 })).map((h) => h.record.id)).toEqual([zh.id]);
      expect((await store.searchText({ query: 'コーヒー', filter: scopes('global'), limit: 10 })).map((h) => h.record.id)).toEqual([ja.id]);
    });

    test('searchText: the filter applies before the limit and history is excluded', async () => {
      const crowd = Array.from({ length: 40 }, (_, i) => rec({ scope: 'user:crowd', text: `tea note number ${i}` }));
      const mine = rec({ scope: 'user:me', text: 'I like green tea' });
      const old = rec({ scope: 'user:me', text: 'I liked black tea', validTo: '2025-03-01T00:00:00.000Z' });
      await store.insert({ records: [...crowd, mine, old] });
      const hits = await store.searchText({ query: 'tea', filter: scopes('user:me'), limit: 3 });
      expect(hits.map((h) => h.record.id)).toEqual([mine.id]);
      const all = await store.searchText({ query: 'tea', filter: { scopes: ['user:me'], includeHistory: true }, limit: 3 });
      expect(ids(all.map((h) => h.record))).toEqual(ids([mine, old]));
    });

    test('searchText: rows written after optimize are found at once', async () => {
      await store.insert({ records: [rec({ text: 'first lemon note' })] });
      await store.optimize();
      const late = rec({ text: 'second lemon note' });
      await store.insert({ records: [late] });
      const hits = await store.searchText({ query: 'lemon', filter: scopes('global'), limit: 10 });
      expect(hits.map((h) => h.record.id)).toContain(late.id);
    });

    vectorTest('searches return stored vectors only when asked (withVectors)', async () => {
      const a = rec({ text: 'quince jam recipe from grandmother' });
      await store.insert({ records: [a] });
      const [plain] = await store.searchText({ query: 'quince', filter: scopes('global'), limit: 5 });
      expect(plain?.vector).toBeUndefined();
      const [text] = await store.searchText({ query: 'quince', filter: scopes('global'), limit: 5, withVectors: true });
      expect(expectVectorClose(text?.vector ?? null, a.vector)).toBe(true);
      const [vec] = await store.searchVector({ vector: a.vector!, filter: scopes('global'), limit: 5, withVectors: true });
      expect(vec?.record.id).toBe(a.id);
      expect(expectVectorClose(vec?.vector ?? null, a.vector)).toBe(true);
    });

    vectorTest('searchVector: cosine similarity ordering, scores and filters', async () => {
      const axis = (x: number, y: number) => [x, y, ...new Array<number>(D - 2).fill(0)];
      const near = rec({ vector: axis(1, 0.1) });
      const mid = rec({ vector: axis(1, 1) });
      const far = rec({ vector: axis(0, 1) });
      const elsewhere = rec({ scope: 'user:other', vector: axis(1, 0) });
      const noVector = rec({ vector: null, text: 'not embedded yet' });
      await store.insert({ records: [far, near, mid, elsewhere, noVector] });
      const hits = await store.searchVector({ vector: axis(2, 0), filter: scopes('global'), limit: 10 });
      expect(hits.map((h) => h.record.id)).toEqual([near.id, mid.id, far.id]);
      expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 4);
      expect(hits[1]!.score).toBeCloseTo(Math.SQRT1_2, 4);
      expect(hits[2]!.score).toBeCloseTo(0, 4);
      expect(hits[0]!.record).not.toHaveProperty('vector');
      expect((await store.searchVector({ vector: axis(1, 0), filter: scopes('global'), limit: 1 })).map((h) => h.record.id)).toEqual([
        near.id,
      ]);
      await expect(store.searchVector({ vector: [1], filter: scopes('global'), limit: 5 })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });

    test('touch: updates access statistics in one call, nothing else', async () => {
      const [a, b] = [rec({ accessCount: 2 }), rec()];
      await store.insert({ records: [a!, b!] });
      await store.touch({
        accesses: [
          { id: a!.id, count: 1, at: '2025-09-01T00:00:00.000Z' },
          { id: a!.id, count: 2, at: '2025-09-02T00:00:00.000Z' },
          { id: b!.id, count: 1, at: '2025-09-03T00:00:00.000Z' },
          { id: 'gone', count: 1, at: '2025-09-03T00:00:00.000Z' },
        ],
      });
      const [gotA, gotB] = await store.get({ ids: [a!.id, b!.id], withVectors: true });
      expect(gotA).toMatchObject({ accessCount: 5, lastAccessedAt: '2025-09-02T00:00:00.000Z', text: a!.text, updatedAt: a!.updatedAt });
      expect(gotB).toMatchObject({ accessCount: 1, lastAccessedAt: '2025-09-03T00:00:00.000Z' });
      expect(expectVectorClose(gotA?.vector ?? null, a!.vector)).toBe(true);
    });

    test('scan: streams every row in bounded batches, per scope or all scopes', async () => {
      const records = [...Array.from({ length: 23 }, () => rec()), ...Array.from({ length: 7 }, () => rec({ scope: 'user:u9' }))];
      await store.insert({ records });
      const seen: string[] = [];
      for await (const batch of store.scan({ scopes: null, batchSize: 5, withVectors: true })) {
        expect(batch.length).toBeLessThanOrEqual(5);
        for (const r of batch) expect(r.vector === null).toBe(D === 0);
        seen.push(...batch.map((r) => r.id));
      }
      expect(seen.sort()).toEqual(ids(records));
      const scoped: string[] = [];
      for await (const batch of store.scan({ scopes: ['user:u9'] })) scoped.push(...batch.map((r) => r.id));
      expect(scoped.sort()).toEqual(ids(records.slice(23)));
    });

    test('rebuild: commit swaps in the new table and embedder, abort leaves everything', async () => {
      const records = [rec({ text: 'alpha apple' }), rec({ text: 'beta banana' })];
      await store.insert({ records });
      const aborted = await store.beginRebuild({ embedderId: 'aborted-embedder', dimensions: 3 });
      await aborted.insert({
        records: records.map((r) => ({ ...r, text: 'never', vector: [1, 0, 0], embeddingModel: 'aborted-embedder' })),
      });
      await aborted.abort();
      expect((await store.getMeta())?.embedderId).toBe(embedderId);
      expect((await store.get({ ids: [records[0]!.id] }))[0]?.text).toBe('alpha apple');

      const handle = await store.beginRebuild({ embedderId: 'next-embedder', dimensions: 3 });
      await handle.insert({
        records: records.map((r, i) => ({ ...r, vector: i === 0 ? [1, 0, 0] : [0, 1, 0], embeddingModel: 'next-embedder' })),
      });
      expect((await store.getMeta())?.embedderId).toBe(embedderId);
      await handle.commit();
      expect(await store.getMeta()).toMatchObject({ embedderId: 'next-embedder', dimensions: 3 });
      const [got] = await store.get({ ids: [records[0]!.id], withVectors: true });
      expect(got).toMatchObject({ text: 'alpha apple', embeddingModel: 'next-embedder' });
      expect(expectVectorClose(got?.vector ?? null, [1, 0, 0])).toBe(true);
      const hits = await store.searchVector({ vector: [0, 1, 0], filter: scopes('global'), limit: 1 });
      expect(hits.map((h) => h.record.id)).toEqual([records[1]!.id]);
      expect((await store.searchText({ query: 'banana', filter: scopes('global'), limit: 5 })).map((h) => h.record.id)).toEqual([
        records[1]!.id,
      ]);
      await expect(store.initMeta({ embedderId, dimensions: D })).rejects.toMatchObject({ code: 'EMBEDDER_MISMATCH' });
    });

    test('optimize and stats: many small writes compact without losing data', async () => {
      const records = Array.from({ length: 30 }, (_, i) =>
        rec({ scope: i % 3 === 0 ? 'user:u1' : 'global', category: i % 2 ? 'fact' : 'rule' }),
      );
      for (const r of records) await store.insert({ records: [r] });
      await store.delete({ ids: [records[1]!.id] });
      const result = await store.optimize({ force: true });
      if (result.fragmentsBefore !== undefined && result.fragmentsAfter !== undefined) {
        expect(result.fragmentsAfter).toBeLessThanOrEqual(result.fragmentsBefore);
      }
      expect(await store.count({ filter: scopes('global', 'user:u1') })).toBe(29);
      const stats = await store.stats();
      expect(stats).toMatchObject({ rows: 29, current: 29, byScope: { 'user:u1': 10, global: 19 }, byCategory: { rule: 15, fact: 14 } });
      const last = records[29]!;
      expect((await store.searchText({ query: last.text, filter: scopes(last.scope), limit: 50 })).map((h) => h.record.id)).toContain(
        last.id,
      );
    });
  });
}
