import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeRecord } from '../../../test/fixtures/store/records.js';
import { testPostgres } from '../../../test/support/postgres.js';
import type { MemoryStoreV1, StoredMemory } from '../../spec/index.js';
import { createPostgresStoreFromConfig, postgresSectionSchema } from './config.js';
import { createPostgresStore, type PostgresStoreOptions } from './index.js';

const db = await testPostgres();
afterAll(async () => db?.close());

const opened: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

async function open(options: Partial<PostgresStoreOptions> & { dimensions?: number } = {}) {
  const { dimensions = 0, ...rest } = options;
  const schema = rest.schema ?? db!.schemaName('pgs');
  const store = createPostgresStore({ url: db!.url, schema, poolSize: 4, ...rest });
  opened.push(store);
  await store.initMeta({ embedderId: dimensions ? 'test-embedder' : 'none', dimensions });
  return store;
}

const rec = (text: string, extra: Partial<StoredMemory> = {}) => makeRecord({ dimensions: 0, text, ...extra });
const search = async (store: MemoryStoreV1, query: string) =>
  (await store.searchText({ query, filter: { scopes: ['global'] }, limit: 20 })).map((h) => h.record.text);

/** memory_terms as the triggers keep it vs. recounted from the rows. */
async function termStatsDrift(schema: string): Promise<number> {
  const { rows } = await db!.query<{ drift: string }>(`SELECT count(*) AS drift FROM (
    SELECT lexeme, df FROM "${schema}".memory_terms WHERE df > 0
    EXCEPT SELECT u.lexeme, count(*) FROM "${schema}".memories m, unnest(m.tsv) u GROUP BY u.lexeme
    UNION ALL
    SELECT u.lexeme, count(*) FROM "${schema}".memories m, unnest(m.tsv) u GROUP BY u.lexeme
    EXCEPT SELECT lexeme, df FROM "${schema}".memory_terms WHERE df > 0) x`);
  return Number(rows[0]?.drift);
}

describe.skipIf(!db)('postgres store specifics', () => {
  it('finds every content word (the LanceDB stop-word bug) and still answers a stop-word-only query', async () => {
    const store = await open();
    const words = ['dog', 'cat', 'city', 'care', 'want', 'come', 'face', 'end'];
    // On PostgreSQL's English stop list, so dropped from a query that has other words, but indexed.
    const stopListed = ['own', 'will', 'same', 'more'];
    await store.insert({ records: [...words, ...stopListed].map((w) => rec(`the ${w} is here`)) });
    for (const w of words) expect(await search(store, `What about the ${w}?`)).toEqual([`the ${w} is here`]);
    for (const w of stopListed) expect((await search(store, w))[0]).toBe(`the ${w} is here`);
    const doc = rec('Who is it');
    await store.insert({ records: [doc] });
    expect(await search(store, 'who is it')).toContain('Who is it');
  });

  it('scores are Okapi BM25: idf weighs rare words over common ones, repeated words saturate', async () => {
    const store = await open();
    await store.insert({ records: [rec('my dog barks'), rec('my cat sleeps'), rec('my car is red'), rec('dog dog dog dog')] });
    const hits = await store.searchText({ query: 'my dog', filter: { scopes: ['global'] }, limit: 10 });
    const score = (t: string) => hits.find((h) => h.record.text === t)?.score ?? 0;
    // Hand-computed BM25 (k1 1.2, b 0.75): N = 4 rows, df(dog) = 2, lengths 3, 3, 4, 4 tokens.
    const idf = (df: number) => Math.log(1 + (4 - df + 0.5) / (df + 0.5));
    const termScore = (tf: number, len: number, df: number) => (idf(df) * (tf * 2.2)) / (tf + 1.2 * (0.25 + (0.75 * len) / 3.5));
    // "my" is a stop word in the query, so only "dog" counts.
    expect(score('my dog barks')).toBeCloseTo(termScore(1, 3, 2), 6);
    expect(score('dog dog dog dog')).toBeCloseTo(termScore(4, 4, 2), 6);
    expect(score('my cat sleeps')).toBe(0);
    expect(score('dog dog dog dog') / score('my dog barks')).toBeLessThan(2.2);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  });

  it('top-k from the rare-terms-first passes equals the exhaustive BM25 ranking', async () => {
    const store = await open();
    const random = (() => {
      let x = 7;
      return () => (x = (x * 48271) % 2147483647) / 2147483647;
    })();
    // 5 common words in most rows (each beyond the first pass's 2000-row budget), 400 rare ones.
    const common = Array.from({ length: 5 }, (_, i) => `common${String.fromCharCode(97 + i)}`);
    const rare = Array.from({ length: 400 }, (_, i) => `rare${i}x`);
    const pick = (words: string[]) => words[Math.floor(random() * words.length)]!;
    const rows = Array.from({ length: 3000 }, () =>
      rec(Array.from({ length: 8 }, () => (random() < 0.7 ? pick(common) : pick(rare))).join(' ')),
    );
    for (let i = 0; i < rows.length; i += 1000) await store.insert({ records: rows.slice(i, i + 1000) });
    for (let q = 0; q < 15; q++) {
      const query = [pick(common), pick(rare), pick(common), q % 3 ? pick(rare) : pick(common)].join(' ');
      const top = await store.searchText({ query, filter: { scopes: ['global'] }, limit: 5 });
      const all = await store.searchText({ query, filter: { scopes: ['global'] }, limit: 3000 });
      expect(top.map((h) => [h.record.id, h.score.toFixed(9)])).toEqual(all.slice(0, 5).map((h) => [h.record.id, h.score.toFixed(9)]));
    }
  });

  it('term statistics stay exact through inserts, updates, deletes and concurrent writers', async () => {
    const schema = db!.schemaName('terms');
    const store = await open({ schema });
    // A second pool stands in for a second process.
    const otherPool = new pg.Pool({ connectionString: db!.url, max: 4 });
    opened.push({ close: () => otherPool.end() });
    const other = createPostgresStore({ pool: otherPool, schema });
    const batches = Array.from({ length: 12 }, (_, i) =>
      Array.from({ length: 20 }, (_, j) => rec(`note ${i} ${j} about coffee tea and the weather ${j % 3}`)),
    );
    await Promise.all(batches.map((b, i) => (i % 2 ? other : store).insert({ records: b })));
    const first = batches[0]!;
    await store.update({ records: first.map((r) => ({ ...r, text: `${r.text} plus espresso` })) });
    await other.delete({ ids: batches[1]!.map((r) => r.id) });
    expect(await termStatsDrift(schema)).toBe(0);
    const { rows } = await db!.query<{ docs: string; total: string }>(`SELECT docs, total_len AS total FROM "${schema}".memory_doc_stats`);
    const real = await db!.query<{ docs: string; total: string }>(
      `SELECT count(*) AS docs, sum(doc_len) AS total FROM "${schema}".memories`,
    );
    expect(rows[0]).toEqual(real.rows[0]);
    expect((await search(store, 'espresso')).length).toBe(20);
  });

  it('withWriteLock excludes writers on other connections and is freed when its holder dies', async () => {
    const schema = db!.schemaName('lock');
    const a = await open({ schema });
    const otherPool = new pg.Pool({ connectionString: db!.url, max: 4 });
    opened.push({ close: () => otherPool.end() });
    const b = createPostgresStore({ pool: otherPool, schema, lockTimeoutMs: 20_000 });
    let counter = 0;
    const bump = (s: MemoryStoreV1) =>
      s.withWriteLock(async () => {
        const seen = counter;
        await new Promise((r) => setTimeout(r, 5));
        counter = seen + 1;
      });
    await Promise.all(Array.from({ length: 10 }, (_, i) => bump(i % 2 ? a : b)));
    expect(counter).toBe(10);
    // Far more waiting writers than pooled connections (4): they queue in memory, the holder
    // still gets a connection for its own queries.
    await Promise.all(
      Array.from({ length: 30 }, () =>
        a.withWriteLock(async () => {
          await a.count({ filter: { scopes: ['global'] } });
          counter++;
        }),
      ),
    );
    expect(counter).toBe(40);

    // A holder whose connection is cut (a killed process): the server drops its lock.
    const holding = a.withWriteLock(async () => {
      await db!.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid() AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
      await new Promise((r) => setTimeout(r, 200));
    });
    await holding.catch(() => undefined);
    const quick = createPostgresStore({ pool: otherPool, schema, lockTimeoutMs: 2_000 });
    await expect(quick.withWriteLock(async () => 'got it')).resolves.toBe('got it');
  });

  it('a busy write lock times out with STORE_LOCKED', async () => {
    const schema = db!.schemaName('busy');
    const a = await open({ schema });
    const b = createPostgresStore({ pool: new pg.Pool({ connectionString: db!.url, max: 3 }), schema, lockTimeoutMs: 300 });
    let release!: () => void;
    const held = a.withWriteLock(() => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 100));
    await expect(b.withWriteLock(async () => undefined)).rejects.toMatchObject({ code: 'STORE_LOCKED', isRetryable: true });
    release();
    await held;
    await (b as unknown as { pool: pg.Pool }).pool.end();
  });

  it('touch writes only the access table: memory rows keep their version', async () => {
    const schema = db!.schemaName('touch');
    const store = await open({ schema });
    const r = rec('touch me');
    await store.insert({ records: [r] });
    const version = async () =>
      (await db!.query(`SELECT xmin::text AS v FROM "${schema}".memories WHERE id = $1`, [r.id])).rows[0]?.v as string;
    const before = await version();
    await store.touch({ accesses: [{ id: r.id, count: 3, at: '2025-09-01T00:00:00.000Z' }] });
    expect(await version()).toBe(before);
    expect((await store.get({ ids: [r.id] }))[0]).toMatchObject({ accessCount: 3, lastAccessedAt: '2025-09-01T00:00:00.000Z' });
  });

  it('migrations are versioned per component, run once, and refuse a newer schema', async () => {
    const schema = db!.schemaName('mig');
    await open({ schema });
    await open({ schema });
    const { rows } = await db!.query(`SELECT component, version FROM "${schema}".strata_migrations`);
    expect(rows).toEqual([{ component: 'memories', version: 1 }]);
    await db!.query(`INSERT INTO "${schema}".strata_migrations (component, version, name) VALUES ('memories', 99, 'future')`);
    const newer = createPostgresStore({ url: db!.url, schema });
    opened.push(newer);
    await expect(newer.getMeta()).rejects.toThrow(/newer than this Strata/);
  });

  it('a changed text-search configuration re-indexes the rows', async () => {
    const schema = db!.schemaName('fts');
    const english = await open({ schema });
    await english.insert({ records: [rec('I prefer dark roast')] });
    expect(await search(english, 'preferences')).toHaveLength(1);
    const simple = await open({ schema, textSearch: 'simple' });
    expect(await search(simple, 'preferences')).toHaveLength(0);
    expect(await search(simple, 'prefer')).toHaveLength(1);
    expect(await termStatsDrift(schema)).toBe(0);
    await expect(open({ textSearch: 'klingon' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('after a re-embed elsewhere, a writer with the old dimensions is refused, a reader follows', async () => {
    const schema = db!.schemaName('reembed');
    const a = await open({ schema, dimensions: 8, annThreshold: 0 });
    const b = createPostgresStore({ url: db!.url, schema });
    opened.push(b);
    const r = makeRecord({ dimensions: 8, text: 'vector row' });
    await a.insert({ records: [r] });
    expect((await b.searchVector({ vector: r.vector!, filter: { scopes: ['global'] }, limit: 1 }))[0]?.record.id).toBe(r.id);
    const handle = await a.beginRebuild({ embedderId: 'small', dimensions: 3 });
    await handle.insert({ records: [{ ...r, vector: [1, 0, 0], embeddingModel: 'small' }] });
    await handle.commit();
    await expect(b.insert({ records: [makeRecord({ dimensions: 8 })] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await b.searchVector({ vector: [1, 0, 0], filter: { scopes: ['global'] }, limit: 1 }))[0]?.score).toBeCloseTo(1, 5);
    const { rows } = await db!.query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'memories' ORDER BY 1`, [
      schema,
    ]);
    expect(rows.map((x) => x.indexname)).toContain('memories_embedding_hnsw');
    expect(rows.every((x) => !String(x.indexname).includes('rebuild'))).toBe(true);
  });

  it('config: the URL comes from the named environment variable only', async () => {
    const section = postgresSectionSchema.parse({});
    expect(section).toEqual({
      urlEnv: 'STRATA_POSTGRES_URL',
      schema: 'strata',
      textSearch: 'english',
      poolSize: 10,
      lockTimeoutMs: 30_000,
    });
    expect(postgresSectionSchema.safeParse({ url: 'postgresql://u:p@h/db' }).success).toBe(false);
    await expect(createPostgresStoreFromConfig({ section, env: {} })).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
    const store = await createPostgresStoreFromConfig({
      section: { ...section, schema: db!.schemaName('cfg') },
      env: { STRATA_POSTGRES_URL: db!.url },
    });
    opened.push(store);
    expect(await store.getMeta()).toBeNull();
  });
});
