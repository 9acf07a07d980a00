import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryStoreV1 } from '../../spec/index.js';
import { makeRecord, seededVector } from '../../../test/fixtures/store/records.js';
import { createLanceDbStore } from './index.js';
import { recordsToArrow } from './schema.js';
import { lancedb } from './tables.js';

const run = promisify(execFile);
const WRITER = join(import.meta.dirname, '../../../test/fixtures/store/locked-writer.ts');

describe('LanceDB store specifics', () => {
  let dir: string;
  const stores: MemoryStoreV1[] = [];
  const open = (options: { annThreshold?: number; lockStaleMs?: number } = {}) => {
    const store = createLanceDbStore({ path: join(dir, 'store'), ...options });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-lancedb-x-'));
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('two processes doing read-check-write under the lock neither lose nor double rows', async () => {
    const path = join(dir, 'store');
    // 200 texts each, the first 150 shared: 250 distinct. A common start time lines the writers up.
    const startAt = String(Date.now() + 4_000);
    const [a, b] = await Promise.all(
      ['a', 'b'].map((label) => run(process.execPath, ['--import', 'tsx', WRITER, path, label, '200', '150', startAt])),
    );
    const inserted = JSON.parse(a!.stdout).inserted + JSON.parse(b!.stdout).inserted;
    expect(inserted).toBe(250);
    const store = open();
    expect(await store.count({ filter: { scopes: ['user:shared'], includeHistory: true } })).toBe(250);
    const hashes = new Set<string>();
    for await (const batch of store.scan({ scopes: ['user:shared'], batchSize: 100 })) for (const r of batch) hashes.add(r.contentHash);
    expect(hashes.size).toBe(250);
  }, 120_000);

  it('recovers a stale lock left by a dead process', async () => {
    const store = open({ lockStaleMs: 2_000 });
    await mkdir(join(dir, 'store'), { recursive: true });
    // proper-lockfile's lock is a directory next to the lock file; an old mtime marks it abandoned.
    const lockDir = join(dir, 'store', 'write.lock.lock');
    await mkdir(lockDir);
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(lockDir, old, old);
    await expect(store.withWriteLock(async () => 'ran')).resolves.toBe('ran');
  });

  it('builds an HNSW index past annThreshold and still finds the exact nearest row', async () => {
    const D = 16;
    const store = open({ annThreshold: 300 });
    await store.initMeta({ embedderId: 'test-embedder', dimensions: D });
    const records = Array.from({ length: 400 }, (_, i) =>
      makeRecord({ dimensions: D, text: `vector row ${i}`, scope: i % 2 ? 'global' : 'user:u1' }),
    );
    await store.insert({ records });
    // Automatic maintenance builds the index once the write crosses the threshold.
    expect((await store.stats()).indexes.some((i) => i.columns.includes('vector'))).toBe(true);
    const result = await store.optimize();
    const stats = await store.stats();
    expect(stats.indexes.find((i) => i.columns.includes('vector'))?.type).toMatch(/HNSW/i);
    expect(result.indexes.length).toBe(stats.indexes.length);
    for (const target of records.slice(0, 20)) {
      const hits = await store.searchVector({ vector: seededVector(target.text, D), filter: { scopes: [target.scope] }, limit: 5 });
      expect(hits[0]?.record.id).toBe(target.id);
      expect(hits[0]?.score).toBeCloseTo(1, 4);
    }
    // Later writes land as index deltas that block compaction; force consolidates them.
    const later = [];
    for (let b = 0; b < 3; b++) {
      const batch = Array.from({ length: 30 }, (_, i) => makeRecord({ dimensions: D, text: `later ${b} ${i}` }));
      later.push(...batch);
      await store.insert({ records: batch });
      await store.optimize();
    }
    expect((await store.stats()).fragments).toBeGreaterThan(1);
    await store.optimize({ force: true });
    expect((await store.stats()).fragments).toBe(1);
    const last = later[later.length - 1]!;
    const hits = await store.searchVector({ vector: seededVector(last.text, D), filter: { scopes: ['global'] }, limit: 3 });
    expect(hits[0]?.record.id).toBe(last.id);
  });

  it('auto-optimises: many single-row writes do not pile up fragments', async () => {
    const store = open();
    await store.initMeta({ embedderId: 'none', dimensions: 0 });
    for (let i = 0; i < 80; i++) await store.insert({ records: [makeRecord({ dimensions: 0, text: `note ${i}` })] });
    const stats = await store.stats();
    expect(stats.rows).toBe(80);
    expect(stats.fragments).toBeLessThan(60);
  });

  it('rejects an efSearch that cannot work', () => {
    expect(() => createLanceDbStore({ path: join(dir, 'store'), efSearch: 0 })).toThrow(/efSearch must be a whole number >= 10/);
    expect(() => createLanceDbStore({ path: join(dir, 'store'), efSearch: 12.5 })).toThrow(/efSearch/);
  });

  it('a reader opened before a rebuild swap follows the new table', async () => {
    const writer = open();
    const reader = open();
    await writer.initMeta({ embedderId: 'test-embedder', dimensions: 4 });
    const record = makeRecord({ dimensions: 4, text: 'swap me' });
    await writer.insert({ records: [record] });
    expect((await reader.get({ ids: [record.id] })).map((r) => r.text)).toEqual(['swap me']);
    const handle = await writer.beginRebuild({ embedderId: 'other-embedder', dimensions: 2 });
    await handle.insert({ records: [{ ...record, text: 'swapped', vector: [1, 0], embeddingModel: 'other-embedder' }] });
    await handle.commit();
    expect((await reader.get({ ids: [record.id] })).map((r) => r.text)).toEqual(['swapped']);
    expect(await reader.getMeta()).toMatchObject({ embedderId: 'other-embedder', dimensions: 2 });
    const hits = await reader.searchVector({ vector: [1, 0], filter: { scopes: ['global'] }, limit: 1 });
    expect(hits.map((h) => h.record.id)).toEqual([record.id]);
  });

  it('keeps reading and writing a schema-1 table (typed columns only); a rebuild upgrades it to the packed layout', async () => {
    const store = open();
    await store.initMeta({ embedderId: 'test-embedder', dimensions: 4 });
    const old = makeRecord({
      dimensions: 4,
      text: 'written by schema one',
      tags: ['legacy'],
      source: { kind: 'distill', agentId: 'a1', sessionKey: 's1', messageIds: ['m1'] },
    });
    const db = await lancedb.connect(join(dir, 'store'));
    await db.createTable('memories', recordsToArrow([old], 4, 'columns'));
    const columnsOf = async (name: string) => (await (await db.openTable(name)).schema()).fields.map((f) => f.name);
    expect(await columnsOf('memories')).not.toContain('record_json');

    const { vector: _v, ...oldFields } = old;
    expect(await store.get({ ids: [old.id] })).toEqual([{ ...oldFields, vector: null }]);
    const added = makeRecord({ dimensions: 4, text: 'written after the upgrade of the code' });
    await store.insert({ records: [added] });
    await store.update({ records: [{ ...old, text: 'schema one, updated', vector: null }] });
    const hits = await store.searchText({ query: 'schema', filter: { scopes: [old.scope] }, limit: 5 });
    expect(hits.map((h) => h.record)).toEqual([
      expect.objectContaining({ id: old.id, text: 'schema one, updated', tags: ['legacy'], source: old.source }),
    ]);
    expect(await columnsOf('memories')).not.toContain('record_json');

    const handle = await store.beginRebuild({ embedderId: 'test-embedder', dimensions: 4 });
    for await (const batch of store.scan({ scopes: null, withVectors: true })) await handle.insert({ records: batch });
    await handle.commit();
    const meta = JSON.parse(await readFile(join(dir, 'store', 'strata-store.json'), 'utf8')) as { table: string; schemaVersion: number };
    expect(meta.schemaVersion).toBe(2);
    expect(await columnsOf(meta.table)).toContain('record_json');
    const [upgraded] = await store.get({ ids: [old.id], withVectors: true });
    expect(upgraded).toMatchObject({ text: 'schema one, updated', tags: ['legacy'], source: old.source });
    expect(upgraded?.vector?.map((x) => Math.round(x * 1e5))).toEqual(old.vector?.map((x) => Math.round(x * 1e5)));
  });
});
