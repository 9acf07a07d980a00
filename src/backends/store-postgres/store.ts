import type pg from 'pg';
import { InvalidArgumentError, NotFoundError, StorageError } from '../../errors/index.js';
import type {
  ListOptions,
  MemoryFilter,
  MemoryRecord,
  MemoryStoreV1,
  RebuildHandle,
  SearchHit,
  SearchOptions,
  StoreCapabilities,
  StoreMeta,
  StoreStats,
  StoredMemory,
} from '../../spec/index.js';
import { MEMORY_MIGRATIONS, typedEmbeddingSql } from './ddl.js';
import { storageErrorOf, wrap } from './errors.js';
import { collectStats, ensureVectorIndex, runOptimize } from './maintenance.js';
import { assertEmbedderArgs, assertSameEmbedder, readMeta, SCHEMA_VERSION, validateBatch } from './meta.js';
import { migrate } from './migrate.js';
import { checkout, inTransaction, poolFor, type PoolLease } from './pool.js';
import { withAdvisoryLock } from './write-lock.js';
import { startRebuild } from './rebuild.js';
import { openStore, type StoreState } from './state.js';
import {
  assertLimit,
  assertScopes,
  chunks,
  filterSql,
  ident,
  Params,
  recordColumns,
  recordOf,
  storedOf,
  text,
  type MemoryRow,
} from './sql.js';
import { bm25Sql, candidatePasses, queryTermsSql, type QueryTerm } from './text-search.js';
import { insertSql, updateSql } from './writes.js';

export interface PostgresStoreOptions {
  /** Connection URL (from the environment; never from a config file). Either this or `pool`. */
  url?: string;
  /** A pool to use instead of opening one (the caller closes it). */
  pool?: pg.Pool;
  /** Schema holding Strata's tables, created on first use. Default `strata`. */
  schema?: string;
  /** Text-search configuration (text-search.ts). Default `english`. */
  textSearch?: string;
  /** Pool size when the store opens the pool. Default 10. */
  poolSize?: number;
  /** HNSW search breadth (hnsw.ef_search), raised to 2x the limit when smaller. Default 100. */
  efSearch?: number;
  /** Row count from which the HNSW index exists (exact search below). Default 20 000. */
  annThreshold?: number;
  /** How long `withWriteLock` waits for another writer. Default 30 000 ms. */
  lockTimeoutMs?: number;
}

const ID_CHUNK = 1000;

/**
 * MemoryStoreV1 on PostgreSQL + pgvector. Tables and their maintenance: ddl.ts; schema changes:
 * migrate.ts (run on first use); text search and its BM25 scores: text-search.ts. Scores: BM25
 * for text, cosine similarity (1 - cosine distance) for vectors. Writes are single statements
 * (or one transaction), so a bad batch writes nothing; `withWriteLock` is a session advisory lock,
 * released by the server if the process dies.
 */
export class PostgresStore implements MemoryStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: StoreCapabilities = {
    fullTextSearch: true,
    cjkFullText: true,
    vectorSearch: true,
    approximateVectorIndex: true,
    maxBatchUpsert: 1000,
    needsOptimize: false,
  };
  readonly schema: string;
  private readonly lease: PoolLease | null;
  readonly pool: pg.Pool;
  private readonly efSearch: number;
  private readonly lockTimeoutMs: number;
  private opened: Promise<StoreState> | null = null;
  private metaCache: StoreMeta | null = null;
  private readonly annThreshold: number;
  private annReady = false;
  private rowsSinceAnnCheck = Number.POSITIVE_INFINITY;

  constructor(private readonly options: PostgresStoreOptions) {
    this.schema = options.schema ?? 'strata';
    ident(this.schema);
    ({ pool: this.pool, lease: this.lease } = poolFor({ ...options, what: 'The PostgreSQL store', urlSetting: 'store.postgres.urlEnv' }));
    this.efSearch = options.efSearch ?? 100;
    this.lockTimeoutMs = options.lockTimeoutMs ?? 30_000;
    this.annThreshold = options.annThreshold ?? 20_000;
    if (!Number.isInteger(this.annThreshold) || this.annThreshold < 0) {
      throw new InvalidArgumentError({
        argument: 'annThreshold',
        message: `annThreshold must be a non-negative whole number, got ${options.annThreshold}.`,
      });
    }
    if (!Number.isInteger(this.efSearch) || this.efSearch < 10 || this.efSearch > 1000) {
      throw new InvalidArgumentError({
        argument: 'efSearch',
        message: `efSearch must be a whole number from 10 to 1000, got ${options.efSearch}.`,
      });
    }
  }

  /** Migrations and text-search setup, once per store object (retried after a failure). */
  private ready(): Promise<StoreState> {
    if (!this.opened) {
      this.opened = wrap('open', async () => {
        await migrate({ pool: this.pool, schema: this.schema, component: 'memories', migrations: MEMORY_MIGRATIONS });
        return openStore({ pool: this.pool, schema: this.schema, textSearch: this.options.textSearch ?? 'english' });
      });
      this.opened.catch(() => (this.opened = null));
    }
    return this.opened;
  }

  private async meta(fresh = false): Promise<StoreMeta | null> {
    const st = await this.ready();
    if (!fresh && this.metaCache) return this.metaCache;
    this.metaCache = await wrap('read meta', () => readMeta(this.pool, st.s));
    return this.metaCache;
  }

  private async requireMeta(fresh = false): Promise<StoreMeta> {
    const meta = await this.meta(fresh);
    if (!meta)
      throw new StorageError({
        message: `The PostgreSQL store in schema "${this.schema}" is not initialised: call initMeta({ embedderId, dimensions }) before writing.`,
      });
    return meta;
  }

  async getMeta(): Promise<StoreMeta | null> {
    return this.meta(true);
  }

  async initMeta(options: { embedderId: string; dimensions: number }): Promise<StoreMeta> {
    assertEmbedderArgs(options);
    const existing = await this.meta(true);
    if (existing) return assertSameEmbedder(existing, options);
    const st = await this.ready();
    const meta = await wrap('initMeta', () =>
      inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${this.schema}:meta`]);
        const again = await readMeta(client, st.s);
        if (again) return again;
        if (options.dimensions > 0) {
          await client.query(typedEmbeddingSql(st.s, 'memories', st.vector, options.dimensions));
        }
        await client.query(
          `INSERT INTO ${st.s}.store_meta (embedder_id, dimensions, schema_version, created_at) VALUES ($1, $2, $3, now())`,
          [options.embedderId, options.dimensions, SCHEMA_VERSION],
        );
        return readMeta(client, st.s);
      }),
    );
    this.metaCache = meta;
    return assertSameEmbedder(meta as StoreMeta, options);
  }

  async insert(options: { records: StoredMemory[] }): Promise<void> {
    if (options.records.length === 0) return;
    const meta = await this.requireMeta();
    validateBatch(options.records, meta.dimensions);
    const st = await this.ready();
    for (const batch of chunks(options.records, this.capabilities.maxBatchUpsert)) {
      const p = new Params();
      await this.write('insert', () => this.pool.query(insertSql({ st, table: 'memories', records: batch, p }), p.values));
    }
    if (meta.dimensions > 0) await this.afterInsert(st, options.records.length);
  }

  /** Checks now and then (first write, then every 1000 rows) whether the HNSW index is due; never fails the write. */
  private async afterInsert(st: StoreState, rows: number): Promise<void> {
    if (this.annReady) return;
    this.rowsSinceAnnCheck += rows;
    if (this.rowsSinceAnnCheck < 1000) return;
    this.rowsSinceAnnCheck = 0;
    this.annReady = await ensureVectorIndex({ pool: this.pool, st, threshold: this.annThreshold }).catch(() => false);
  }

  async update(options: { records: StoredMemory[] }): Promise<void> {
    if (options.records.length === 0) return;
    const meta = await this.requireMeta();
    validateBatch(options.records, meta.dimensions);
    const st = await this.ready();
    await this.write('update', () =>
      inTransaction(this.pool, async (client) => {
        for (const batch of chunks(options.records, this.capabilities.maxBatchUpsert)) {
          const p = new Params();
          const { rows } = await client.query<{ id: string }>(updateSql({ st, records: batch, p }), p.values);
          const updated = new Set(rows.map((r) => r.id));
          const missing = batch.find((r) => !updated.has(r.id));
          if (missing) throw new NotFoundError({ what: 'memory', id: missing.id });
        }
      }),
    );
  }

  /** Writes; a vector rejected by the dimensions check means another process re-embedded the store. */
  private async write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const e = error as { code?: string; message?: string };
      if (e.code === '22000' && /dimensions/.test(e.message ?? '')) {
        this.metaCache = null;
        const meta = await this.meta(true);
        throw new InvalidArgumentError({
          argument: 'records',
          message: `The store was re-embedded meanwhile and now holds ${meta?.dimensions} dimensions (${meta?.embedderId}); embed the records with that embedder.`,
        });
      }
      throw storageErrorOf(what, error);
    }
  }

  async touch(options: { accesses: Array<{ id: string; count: number; at: string }> }): Promise<void> {
    if (options.accesses.length === 0) return;
    const byId = new Map<string, { id: string; count: number; at: string }>();
    for (const a of options.accesses) {
      if (!Number.isInteger(a.count) || a.count < 0)
        throw new InvalidArgumentError({
          argument: 'accesses',
          message: `Access for ${JSON.stringify(a.id)} needs a non-negative integer count.`,
        });
      text(a.id, 'accesses.id');
      const at = a.at;
      const prev = byId.get(a.id);
      byId.set(a.id, { id: a.id, count: (prev?.count ?? 0) + a.count, at: prev && prev.at > at ? prev.at : at });
    }
    for (const entry of byId.values())
      if (!Number.isFinite(Date.parse(entry.at)))
        throw new InvalidArgumentError({
          argument: 'accesses',
          message: `Access time ${JSON.stringify(entry.at)} is not an ISO-8601 time.`,
        });
    const st = await this.ready();
    // Upserts into the small side table only: the memory rows (and their vectors) stay untouched.
    await wrap('touch', () =>
      this.pool.query(
        `INSERT INTO ${st.s}.memory_access AS a (id, access_count, last_accessed_at)
      SELECT r.id, r.count, r.at FROM jsonb_to_recordset($1::jsonb) AS r(id text, count bigint, at timestamptz)
      WHERE EXISTS (SELECT 1 FROM ${st.s}.memories m WHERE m.id = r.id) ORDER BY r.id
      ON CONFLICT (id) DO UPDATE SET access_count = a.access_count + excluded.access_count,
        last_accessed_at = greatest(a.last_accessed_at, excluded.last_accessed_at)`,
        [JSON.stringify([...byId.values()])],
      ),
    );
  }

  async delete(options: { ids: string[] }): Promise<number> {
    if (options.ids.length === 0) return 0;
    const st = await this.ready();
    let deleted = 0;
    for (const ids of chunks([...new Set(options.ids.map((id) => text(id, 'ids')))], ID_CHUNK)) {
      const { rows } = await wrap('delete', () =>
        this.pool.query<{ n: number }>(
          `WITH d AS (DELETE FROM ${st.s}.memories WHERE id = ANY($1::text[]) RETURNING id),
        a AS (DELETE FROM ${st.s}.memory_access WHERE id IN (SELECT id FROM d)) SELECT count(*) AS n FROM d`,
          [ids],
        ),
      );
      deleted += rows[0]?.n ?? 0;
    }
    return deleted;
  }

  async get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredMemory[]> {
    if (options.ids.length === 0) return [];
    const st = await this.ready();
    const found = new Map<string, StoredMemory>();
    const withVectors = options.withVectors === true;
    for (const ids of chunks([...new Set(options.ids.map((id) => text(id, 'ids')))], ID_CHUNK)) {
      const { rows } = await wrap('get', () =>
        this.pool.query<MemoryRow>(
          `SELECT ${recordColumns(withVectors)} FROM ${st.s}.memories m
        LEFT JOIN ${st.s}.memory_access a ON a.id = m.id WHERE m.id = ANY($1::text[])`,
          [ids],
        ),
      );
      for (const row of rows) found.set(row.id, withVectors ? storedOf(row) : { ...recordOf(row), vector: null });
    }
    return options.ids.flatMap((id) => {
      const record = found.get(id);
      if (!record) return [];
      found.delete(id);
      return [record];
    });
  }

  async existingIds(options: { ids: string[] }): Promise<Set<string>> {
    const st = await this.ready();
    const out = new Set<string>();
    for (const ids of chunks([...new Set(options.ids.map((id) => text(id, 'ids')))], ID_CHUNK)) {
      const { rows } = await wrap('existingIds', () =>
        this.pool.query<{ id: string }>(`SELECT id FROM ${st.s}.memories WHERE id = ANY($1::text[])`, [ids]),
      );
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  async findByHash(options: { scope: string; contentHashes: string[] }): Promise<MemoryRecord[]> {
    if (options.contentHashes.length === 0) return [];
    const st = await this.ready();
    const { rows } = await wrap('findByHash', () =>
      this.pool.query<MemoryRow>(
        `SELECT ${recordColumns(false)} FROM ${st.s}.memories m
      LEFT JOIN ${st.s}.memory_access a ON a.id = m.id WHERE m.scope = $1 AND m.content_hash = ANY($2::text[]) ORDER BY m.created_at, m.id`,
        [text(options.scope, 'scope'), options.contentHashes.map((h) => text(h, 'contentHashes'))],
      ),
    );
    return rows.map(recordOf);
  }

  async list(options: ListOptions): Promise<MemoryRecord[]> {
    const p = new Params();
    const where = filterSql(options.filter, p);
    assertLimit(options.limit);
    const offset = options.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0)
      throw new InvalidArgumentError({ argument: 'offset', message: `offset must be a non-negative integer, got ${offset}.` });
    const st = await this.ready();
    const dir = options.order === 'oldest' ? 'ASC' : 'DESC';
    const { rows } = await wrap('list', () =>
      this.pool.query<MemoryRow>(
        `SELECT ${recordColumns(false)} FROM ${st.s}.memories m
      LEFT JOIN ${st.s}.memory_access a ON a.id = m.id WHERE ${where}
      ORDER BY m.created_at ${dir}, m.id ${dir} LIMIT ${p.add(options.limit, 'int')} OFFSET ${p.add(offset, 'int')}`,
        p.values,
      ),
    );
    return rows.map(recordOf);
  }

  async count(options: { filter: MemoryFilter }): Promise<number> {
    const p = new Params();
    const where = filterSql(options.filter, p);
    const st = await this.ready();
    const { rows } = await wrap('count', () =>
      this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${st.s}.memories m WHERE ${where}`, p.values),
    );
    return rows[0]?.n ?? 0;
  }

  async *scan(options: { scopes: string[] | null; batchSize?: number; withVectors?: boolean }): AsyncIterable<StoredMemory[]> {
    const scopes = options.scopes === null ? null : assertScopes(options.scopes, 'scopes');
    const batchSize = options.batchSize ?? 1000;
    assertLimit(batchSize, 'batchSize');
    const st = await this.ready();
    const withVectors = options.withVectors === true;
    // Keyset pages by id: no long transaction or cursor held between batches.
    let after = '';
    for (;;) {
      const { rows } = await wrap('scan', () =>
        this.pool.query<MemoryRow>(
          `SELECT ${recordColumns(withVectors)} FROM ${st.s}.memories m
        LEFT JOIN ${st.s}.memory_access a ON a.id = m.id
        WHERE m.id > $1 AND ($2::text[] IS NULL OR m.scope = ANY($2::text[])) ORDER BY m.id LIMIT $3`,
          [after, scopes, batchSize],
        ),
      );
      if (rows.length === 0) return;
      yield rows.map((row) => (withVectors ? storedOf(row) : { ...recordOf(row), vector: null }));
      after = rows[rows.length - 1]!.id;
      if (rows.length < batchSize) return;
    }
  }

  /** BM25 top k (text-search.ts): the query's terms and statistics, then passes from rare terms to all. */
  async searchText(options: SearchOptions & { query: string }): Promise<SearchHit[]> {
    filterSql(options.filter, new Params());
    assertLimit(options.limit);
    const query = text(options.query, 'query').trim();
    if (query === '') return [];
    const st = await this.ready();
    const withVectors = options.withVectors === true;
    const tp = new Params();
    const terms = (
      await wrap('searchText', () =>
        this.pool.query<QueryTerm & { avgdl: number }>(queryTermsSql({ s: st.s, configs: st.textSearch, query, p: tp }), tp.values),
      )
    ).rows;
    if (terms.length === 0) return [];
    let rows: Array<MemoryRow & { score: number }> = [];
    for (const pass of candidatePasses(terms)) {
      const p = new Params();
      const where = filterSql(options.filter, p);
      const top = bm25Sql({
        s: st.s,
        table: 'memories',
        terms,
        candidates: pass.candidates,
        avgdl: terms[0]!.avgdl,
        where,
        limit: options.limit,
        p,
      });
      rows = (
        await wrap('searchText', () =>
          this.pool.query<MemoryRow & { score: number }>(
            `WITH top AS MATERIALIZED (${top})
        SELECT ${recordColumns(withVectors)}, top.score FROM top JOIN ${st.s}.memories m ON m.id = top.id
        LEFT JOIN ${st.s}.memory_access a ON a.id = m.id ORDER BY top.score DESC, m.id`,
            p.values,
          ),
        )
      ).rows;
      const kth = rows[options.limit - 1]?.score;
      if (pass.leftOutBound === 0 || (kth !== undefined && kth >= pass.leftOutBound)) break;
    }
    return rows.map((row) => hitOf(row, row.score, withVectors));
  }

  async searchVector(options: SearchOptions & { vector: number[] }): Promise<SearchHit[]> {
    const p = new Params();
    const where = filterSql(options.filter, p);
    assertLimit(options.limit);
    const meta = await this.meta();
    if (!meta || meta.dimensions === 0) return [];
    try {
      return await this.vectorQuery(options, meta, where, p);
    } catch (error) {
      // Another process may have re-embedded the store (new dimensions): re-read meta once.
      if ((error as { code?: string }).code !== '22000') throw storageErrorOf('searchVector', error);
      const fresh = await this.meta(true);
      if (!fresh || fresh.dimensions === 0) return [];
      const p2 = new Params();
      return wrap('searchVector', () => this.vectorQuery(options, fresh, filterSql(options.filter, p2), p2));
    }
  }

  private async vectorQuery(
    options: SearchOptions & { vector: number[] },
    meta: StoreMeta,
    where: string,
    p: Params,
  ): Promise<SearchHit[]> {
    if (!Array.isArray(options.vector) || options.vector.length !== meta.dimensions || !options.vector.every(Number.isFinite)) {
      throw new InvalidArgumentError({
        argument: 'vector',
        message: `Query vector has ${options.vector?.length} dimensions but the store holds ${meta.dimensions}-dimensional vectors from ${meta.embedderId}; embed the query with that embedder.`,
      });
    }
    const st = await this.ready();
    const distance = `m.embedding OPERATOR(${st.vectorSchema}.<=>) ${p.add(JSON.stringify(options.vector), `${st.vector}(${meta.dimensions})`)}`;
    const withVectors = options.withVectors === true;
    const sql = `WITH hits AS MATERIALIZED (SELECT m.id, ${distance} AS distance FROM ${st.s}.memories m
        WHERE ${where} AND m.embedding IS NOT NULL ORDER BY ${distance} LIMIT ${p.add(options.limit, 'int')})
      SELECT ${recordColumns(withVectors)}, hits.distance FROM hits JOIN ${st.s}.memories m ON m.id = hits.id
      LEFT JOIN ${st.s}.memory_access a ON a.id = m.id ORDER BY hits.distance, m.id`;
    const { client, release } = await checkout(this.pool);
    try {
      // Filtered HNSW scans keep going until `limit` rows pass the filter (pgvector >= 0.8).
      const ef = Math.min(1000, Math.max(this.efSearch, options.limit * 2));
      await client.query(
        `BEGIN; SET LOCAL hnsw.ef_search = ${ef}${st.iterativeScan ? "; SET LOCAL hnsw.iterative_scan = 'relaxed_order'" : ''}`,
      );
      const { rows } = await client.query<MemoryRow & { distance: number | null }>(sql, p.values);
      await client.query('COMMIT');
      return rows
        .filter((r) => r.distance !== null && Number.isFinite(r.distance))
        .map((row) => hitOf(row, 1 - (row.distance as number), withVectors));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      release();
    }
  }

  async withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
    await this.ready();
    return withAdvisoryLock(
      { pool: this.pool, key: `strata:${this.schema}:write`, timeoutMs: this.lockTimeoutMs, what: `schema "${this.schema}"` },
      fn,
    );
  }

  async optimize(options?: { force?: boolean }): Promise<{ fragmentsBefore?: number; fragmentsAfter?: number; indexes: string[] }> {
    const st = await this.ready();
    return wrap('optimize', async () =>
      runOptimize({ pool: this.pool, st, meta: await this.meta(true), force: options?.force === true, annThreshold: this.annThreshold }),
    );
  }

  async stats(options: { filter?: MemoryFilter } = {}): Promise<StoreStats> {
    const st = await this.ready();
    return wrap('stats', () => collectStats({ pool: this.pool, st, filter: options.filter }));
  }

  async beginRebuild(options: { embedderId: string; dimensions: number }): Promise<RebuildHandle> {
    assertEmbedderArgs(options);
    const st = await this.ready();
    return startRebuild({
      pool: this.pool,
      st,
      ...options,
      annThreshold: this.annThreshold,
      onCommit: () => {
        this.metaCache = null;
        this.annReady = false;
      },
    });
  }

  async close(): Promise<void> {
    await this.lease?.release();
  }
}

function hitOf(row: MemoryRow, score: number, withVectors: boolean): SearchHit {
  const record = recordOf(row);
  return withVectors ? { record, score, vector: storedOf(row).vector } : { record, score };
}
