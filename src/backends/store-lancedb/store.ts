import { join } from 'node:path';
import { InvalidArgumentError, NotFoundError } from '../../errors/index.js';
import type {
  ListOptions,
  MemoryFilter,
  MemoryRecord,
  MemoryStoreV1,
  SearchOptions,
  RebuildHandle,
  SearchHit,
  StoreCapabilities,
  StoreMeta,
  StoreStats,
  StoredMemory,
} from '../../spec/index.js';
import { withFileLock } from '../../util/file-lock.js';
import { assertScopes, filterToWhere, inList, sqlString } from './filter.js';
import { AccessLog } from './access-log.js';
import { checkEmbedder, publicMeta, writeMetaFile, type MetaFile } from './meta.js';
import { collectStats } from './stats.js';
import { Maintenance } from './maintenance.js';
import { startRebuild } from './rebuild.js';
import { COLUMNS, SCHEMA_VERSION, readColumns, rowsFromArrow, type TableLayout } from './schema.js';
import { FTS_INDEX_VERSION } from './fts.js';
import { lancedb, TableRegistry, type Table } from './tables.js';
import { assertLimit, chunks, stripVector, toArrowData, validateRecords, wrap } from './util.js';

export interface LanceDbStoreOptions {
  /** Store folder (created on first write). */
  path: string;
  /** Name of the live table when the store is first initialised. Default `memories`. */
  tableName?: string;
  /** Row count above which `optimize()` builds an HNSW_SQ vector index. Default 20 000. */
  annThreshold?: number;
  /**
   * HNSW search breadth (ef), at least 2x the requested limit. Default 100: on 30k real sentence
   * embeddings (USE-lite, WordNet glosses; `npm run bench -- ann`) ef 100 and 300 both find the
   * exact top 10, filtered or not; random vectors, HNSW's worst case, need far more.
   */
  efSearch?: number;
  /** A write lock not refreshed for this long is taken over. Default 10 000 ms. */
  lockStaleMs?: number;
}

const ID_CHUNK = 500;

/**
 * MemoryStoreV1 over one LanceDB table per store folder: one row per memory, typed columns
 * (schema.ts), a `vector` column only when the embedder has dimensions. The meta file
 * (meta.ts) names the live table, so `reembed` can build a new table and swap it in atomically.
 * Filters become predicates only in filter.ts. Writes batch into one LanceDB commit per call;
 * maintenance.ts compacts and re-indexes behind the writes. Scores: BM25 for text, cosine
 * similarity (1 - cosine distance) for vectors.
 */
export class LanceDbStore implements MemoryStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'lancedb';
  readonly capabilities: StoreCapabilities = {
    fullTextSearch: true,
    cjkFullText: true,
    vectorSearch: true,
    approximateVectorIndex: true,
    maxBatchUpsert: 10_000,
    needsOptimize: true,
  };
  private readonly registry: TableRegistry;
  private readonly maintenance: Maintenance;
  private readonly tableName: string;
  private readonly lockStaleMs: number | undefined;
  private readonly efSearch: number;
  private readonly accessLogs = new Map<string, AccessLog>();
  private readonly layouts = new WeakMap<Table, Promise<TableLayout>>();

  constructor(private readonly options: LanceDbStoreOptions) {
    if (!options.path) throw new InvalidArgumentError({ argument: 'path', message: 'createLanceDbStore needs a store folder path.' });
    this.tableName = options.tableName ?? 'memories';
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(this.tableName)) {
      throw new InvalidArgumentError({
        argument: 'tableName',
        message: `Invalid table name ${JSON.stringify(this.tableName)}: use letters, digits, _ and -.`,
      });
    }
    this.lockStaleMs = options.lockStaleMs;
    this.registry = new TableRegistry(options.path, options.lockStaleMs);
    this.maintenance = new Maintenance({ annThreshold: options.annThreshold ?? 20_000 });
    this.efSearch = options.efSearch ?? 100;
    if (!Number.isInteger(this.efSearch) || this.efSearch < 10) {
      throw new InvalidArgumentError({ argument: 'efSearch', message: `efSearch must be a whole number >= 10, got ${options.efSearch}.` });
    }
  }

  async getMeta(): Promise<StoreMeta | null> {
    const meta = await this.registry.meta();
    return meta ? publicMeta(meta) : null;
  }

  async initMeta(options: { embedderId: string; dimensions: number }): Promise<StoreMeta> {
    const { embedderId, dimensions } = options;
    if (!embedderId) throw new InvalidArgumentError({ argument: 'embedderId', message: 'initMeta needs the embedder id.' });
    if (!Number.isInteger(dimensions) || dimensions < 0) {
      throw new InvalidArgumentError({ argument: 'dimensions', message: `dimensions must be a non-negative integer, got ${dimensions}.` });
    }
    const existing = await this.registry.meta();
    if (existing) return publicMeta(checkEmbedder(existing, options));
    // A separate lock from the write lock: callers may call initMeta while holding withWriteLock.
    return this.registry.withMetaLock(async () => {
      this.registry.invalidateMeta();
      const again = await this.registry.meta();
      if (again) return publicMeta(checkEmbedder(again, options));
      const meta: MetaFile = {
        embedderId,
        dimensions,
        schemaVersion: SCHEMA_VERSION,
        createdAt: new Date().toISOString(),
        table: this.tableName,
        ftsVersion: FTS_INDEX_VERSION,
      };
      await writeMetaFile(this.registry.metaPath, meta);
      this.registry.invalidateMeta();
      return publicMeta(meta);
    });
  }

  async insert(options: { records: StoredMemory[] }): Promise<void> {
    if (options.records.length === 0) return;
    const meta = await this.registry.requireMeta();
    validateRecords(options.records, meta.dimensions);
    const table = await this.registry.openOrCreate(meta.table, meta.dimensions);
    const layout = await this.layoutOf(table);
    await wrap('insert', () => table.add(toArrowData(options.records, meta.dimensions, layout)));
    await this.maintenance.afterWrite(table, meta.dimensions, options.records.length);
  }

  async update(options: { records: StoredMemory[] }): Promise<void> {
    if (options.records.length === 0) return;
    const meta = await this.registry.requireMeta();
    validateRecords(options.records, meta.dimensions);
    const table = await this.registry.openOrCreate(meta.table, meta.dimensions);
    // Vectors left null keep the stored one; every id must exist (no half-applied updates).
    const needVectors = meta.dimensions > 0 && options.records.some((r) => r.vector === null);
    const current = await this.readRows({ table, ids: options.records.map((r) => r.id), withVectors: needVectors });
    const missing = options.records.find((r) => !current.has(r.id));
    if (missing) throw new NotFoundError({ what: 'memory', id: missing.id });
    // Access statistics are not the caller's to set: the stored base stays and the access log
    // keeps adding to it (access-log.ts), whatever (overlaid) values the caller read and passed.
    const records = options.records.map((r) => {
      const stored = current.get(r.id) as StoredMemory;
      const vector = r.vector === null && meta.dimensions > 0 ? stored.vector : r.vector;
      return { ...r, vector, accessCount: stored.accessCount, lastAccessedAt: stored.lastAccessedAt };
    });
    const layout = await this.layoutOf(table);
    await wrap('update', () =>
      table
        .mergeInsert(COLUMNS.id)
        .whenMatchedUpdateAll()
        .execute(toArrowData(records, meta.dimensions, layout)),
    );
    await this.maintenance.afterWrite(table, meta.dimensions, records.length);
  }

  async touch(options: { accesses: Array<{ id: string; count: number; at: string }> }): Promise<void> {
    if (options.accesses.length === 0) return;
    const byId = new Map<string, { count: number; at: string }>();
    for (const a of options.accesses) {
      if (!Number.isInteger(a.count) || a.count < 0 || typeof a.at !== 'string') {
        throw new InvalidArgumentError({
          argument: 'accesses',
          message: `Access for ${JSON.stringify(a.id)} needs a non-negative integer count and an ISO time.`,
        });
      }
      const prev = byId.get(a.id);
      byId.set(a.id, { count: (prev?.count ?? 0) + a.count, at: prev && prev.at > a.at ? prev.at : a.at });
    }
    const meta = await this.registry.requireMeta();
    // No table read or write on this path: an append to the access log (see access-log.ts).
    await wrap('touch', () => this.accessLog(meta.table).add({ accesses: byId }));
  }

  async delete(options: { ids: string[] }): Promise<number> {
    const table = await this.liveTable();
    if (!table || options.ids.length === 0) return 0;
    let deleted = 0;
    for (const ids of chunks([...new Set(options.ids)], ID_CHUNK)) {
      const result = await wrap('delete', () => table.delete(inList(COLUMNS.id, ids, 'ids')));
      deleted += result.numDeletedRows;
    }
    const meta = await this.registry.requireMeta();
    await this.maintenance.afterWrite(table, meta.dimensions, deleted);
    return deleted;
  }

  async get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredMemory[]> {
    const table = await this.liveTable();
    if (!table || options.ids.length === 0) return [];
    const found = await this.readRows({ table, ids: options.ids, withVectors: options.withVectors === true });
    await this.overlayAccess([...found.values()]);
    return options.ids.flatMap((id) => {
      const record = found.get(id);
      if (!record) return [];
      found.delete(id);
      return [record];
    });
  }

  /** Rows by id as stored (access log not applied). */
  private async readRows(options: { table: Table; ids: string[]; withVectors: boolean }): Promise<Map<string, StoredMemory>> {
    const { table } = options;
    const withVectors = options.withVectors && (await this.registry.requireMeta()).dimensions > 0;
    const found = new Map<string, StoredMemory>();
    const columns = readColumns(await this.layoutOf(table), withVectors);
    for (const ids of chunks([...new Set(options.ids)], ID_CHUNK)) {
      const result = await wrap('get', () =>
        table
          .query()
          .where(inList(COLUMNS.id, ids, 'ids'))
          .select(columns)
          .toArrow(),
      );
      for (const { record } of rowsFromArrow(result, { withVectors })) found.set(record.id, record);
    }
    return found;
  }

  async existingIds(options: { ids: string[] }): Promise<Set<string>> {
    const table = await this.liveTable();
    const out = new Set<string>();
    if (!table) return out;
    for (const ids of chunks([...new Set(options.ids)], ID_CHUNK)) {
      const rows = await wrap('existingIds', () =>
        table
          .query()
          .where(inList(COLUMNS.id, ids, 'ids'))
          .select([COLUMNS.id])
          .toArray(),
      );
      for (const row of rows) out.add(String(row[COLUMNS.id]));
    }
    return out;
  }

  /** Every row of the scope with one of the hashes, history included (records carry validTo). */
  async findByHash(options: { scope: string; contentHashes: string[] }): Promise<MemoryRecord[]> {
    const table = await this.liveTable();
    if (!table || options.contentHashes.length === 0) return [];
    const out: MemoryRecord[] = [];
    const columns = readColumns(await this.layoutOf(table));
    for (const hashes of chunks([...new Set(options.contentHashes)], ID_CHUNK)) {
      const where = `${COLUMNS.scope} = ${sqlString(options.scope, 'scope')} AND ${inList(COLUMNS.contentHash, hashes, 'contentHashes')}`;
      const result = await wrap('findByHash', () => table.query().where(where).select(columns).toArrow());
      out.push(...rowsFromArrow(result, { withVectors: false }).map((r) => stripVector(r.record)));
    }
    return this.overlayAccess(out);
  }

  async list(options: ListOptions): Promise<MemoryRecord[]> {
    const where = filterToWhere(options.filter);
    assertLimit(options.limit);
    const offset = options.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0)
      throw new InvalidArgumentError({ argument: 'offset', message: `offset must be a non-negative integer, got ${offset}.` });
    const table = await this.liveTable();
    if (!table) return [];
    const ascending = options.order === 'oldest';
    // The sort column must be selected too, or LanceDB's planner fails (TakeExec needs _rowid).
    const columns = [...new Set([...readColumns(await this.layoutOf(table)), COLUMNS.createdAt])];
    const query = table
      .query()
      .where(where)
      .select(columns)
      .orderBy([
        { columnName: COLUMNS.createdAt, ascending },
        { columnName: COLUMNS.id, ascending },
      ])
      .offset(offset)
      .limit(options.limit);
    const result = await wrap('list', () => query.toArrow());
    return this.overlayAccess(rowsFromArrow(result, { withVectors: false }).map((r) => stripVector(r.record)));
  }

  async count(options: { filter: MemoryFilter }): Promise<number> {
    const where = filterToWhere(options.filter);
    const table = await this.liveTable();
    return table ? wrap('count', () => table.countRows(where)) : 0;
  }

  async *scan(options: { scopes: string[] | null; batchSize?: number; withVectors?: boolean }): AsyncIterable<StoredMemory[]> {
    const where = options.scopes === null ? null : inList(COLUMNS.scope, assertScopes(options.scopes, 'scopes'), 'scopes');
    const batchSize = options.batchSize ?? 1000;
    assertLimit(batchSize, 'batchSize');
    const table = await this.liveTable();
    if (!table) return;
    const withVectors = options.withVectors === true && (await this.registry.requireMeta()).dimensions > 0;
    let query = table.query().select(readColumns(await this.layoutOf(table), withVectors));
    if (where) query = query.where(where);
    let buffer: StoredMemory[] = [];
    // The query streams Arrow batches with back-pressure, so memory stays flat for any table size.
    for await (const batch of query) {
      const records = await this.overlayAccess(rowsFromArrow(batch, { withVectors }).map((r) => r.record));
      for (const record of records) {
        buffer.push(record);
        if (buffer.length >= batchSize) {
          yield buffer;
          buffer = [];
        }
      }
    }
    if (buffer.length > 0) yield buffer;
  }

  async searchText(options: SearchOptions & { query: string }): Promise<SearchHit[]> {
    const where = filterToWhere(options.filter);
    assertLimit(options.limit);
    const text = options.query.trim();
    const table = await this.liveTable();
    if (!table || text === '') return [];
    const withVectors = await this.searchWithVectors(options);
    const query = table
      .query()
      .fullTextSearch(new lancedb.MatchQuery(text, COLUMNS.text))
      .where(where)
      .select([...readColumns(await this.layoutOf(table), withVectors), '_score'])
      .limit(options.limit);
    const result = await wrap('searchText', () => query.toArrow());
    const rows = rowsFromArrow(result, { withVectors, extra: '_score' });
    await this.overlayAccess(rows.map((r) => r.record));
    return rows.map((r) => hitOf(r.record, r.extra, withVectors)).sort((a, b) => b.score - a.score);
  }

  async searchVector(options: SearchOptions & { vector: number[] }): Promise<SearchHit[]> {
    const where = filterToWhere(options.filter);
    assertLimit(options.limit);
    const meta = await this.registry.meta();
    if (!meta || meta.dimensions === 0) return [];
    if (options.vector.length !== meta.dimensions) {
      throw new InvalidArgumentError({
        argument: 'vector',
        message: `Query vector has ${options.vector.length} dimensions but the store holds ${meta.dimensions}-dimensional vectors from ${meta.embedderId}; embed the query with that embedder.`,
      });
    }
    const table = await this.liveTable();
    if (!table) return [];
    // Prefiltering is LanceDB's default. ef only matters once an HNSW index exists (see efSearch). No
    // `vector IS NOT NULL` here: it forces reading every vector (10x slower at 100k rows), and
    // rows without a vector get a null distance that is dropped below.
    const query = table
      .query()
      .nearestTo(options.vector)
      .distanceType('cosine')
      .ef(Math.max(this.efSearch, options.limit * 2))
      .where(where)
      .select([...readColumns(await this.layoutOf(table), options.withVectors === true), '_distance'])
      .limit(options.limit);
    const result = await wrap('searchVector', () => query.toArrow());
    const rows = rowsFromArrow(result, { withVectors: options.withVectors === true, extra: '_distance' });
    await this.overlayAccess(rows.map((r) => r.record));
    return rows
      .filter((r) => Number.isFinite(r.extra))
      .map((r) => hitOf(r.record, 1 - r.extra, options.withVectors === true))
      .sort((a, b) => b.score - a.score);
  }

  private async searchWithVectors(options: { withVectors?: boolean }): Promise<boolean> {
    return options.withVectors === true && ((await this.registry.meta())?.dimensions ?? 0) > 0;
  }

  withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock({ path: join(this.options.path, 'write.lock'), staleMs: this.lockStaleMs }, fn);
  }

  async optimize(options?: { force?: boolean }): Promise<{ fragmentsBefore?: number; fragmentsAfter?: number; indexes: string[] }> {
    const meta = await this.registry.meta();
    const table = meta ? await this.registry.open(meta.table) : null;
    if (!meta || !table) return { indexes: [] };
    return this.maintenance.optimize(table, meta.dimensions, { mode: options?.force === true ? 'force' : 'explicit' });
  }

  async stats(options: { filter?: MemoryFilter } = {}): Promise<StoreStats> {
    const table = await this.liveTable();
    return table ? collectStats(table, options) : { rows: 0, current: 0, byScope: {}, byCategory: {}, indexes: [] };
  }

  /**
   * Tables of this store that the meta file does not name: left by an interrupted `reembed` or a
   * failed drop after a swap. Found under the write lock, so a rebuild in progress (which holds it)
   * is never taken for an orphan.
   */
  orphanTables(): Promise<string[]> {
    return this.withWriteLock(() => this.findOrphans());
  }

  /** Drops the orphan tables (`strata doctor --repair`); returns their names. */
  dropOrphanTables(): Promise<string[]> {
    return this.withWriteLock(async () => {
      const orphans = await this.findOrphans();
      for (const name of orphans) await this.registry.drop(name);
      return orphans;
    });
  }

  private async findOrphans(): Promise<string[]> {
    this.registry.invalidateMeta();
    const meta = await this.registry.meta();
    if (!meta) return [];
    const ours = new RegExp(`^${this.tableName}(_[a-z0-9]+)?$`);
    const names = await (await this.registry.connection()).tableNames();
    return names.filter((n) => ours.test(n) && n !== meta.table);
  }

  async beginRebuild(options: { embedderId: string; dimensions: number }): Promise<RebuildHandle> {
    return startRebuild({ registry: this.registry, maintenance: this.maintenance, baseName: this.tableName, ...options });
  }

  async close(): Promise<void> {
    await this.registry.close();
  }

  /** Schema-1 tables (no record_json) are read and written column by column. */
  private layoutOf(table: Table): Promise<TableLayout> {
    let layout = this.layouts.get(table);
    if (!layout) {
      layout = table.schema().then((schema) => (schema.fields.some((f) => f.name === COLUMNS.packed) ? 'packed' : 'columns'));
      layout.catch(() => this.layouts.delete(table));
      this.layouts.set(table, layout);
    }
    return layout;
  }

  private accessLog(table: string): AccessLog {
    let log = this.accessLogs.get(table);
    if (!log) {
      log = new AccessLog({ path: join(this.options.path, `access-${table}.jsonl`), lockStaleMs: this.lockStaleMs });
      this.accessLogs.set(table, log);
    }
    return log;
  }

  /** Applies the access log to records read from the table, in place. */
  private async overlayAccess<T extends MemoryRecord>(records: T[]): Promise<T[]> {
    // The live table's name comes from the (stat-cached) meta file: reading `table.name` on the
    // LanceDB handle fails while another query on it is running ("cannot be borrowed mutably").
    const meta = await this.registry.meta();
    if (!meta || records.length === 0) return records;
    const log = this.accessLog(meta.table);
    await wrap('access log', () => log.refresh());
    for (const r of records) {
      const e = log.overlay(r.id, { count: r.accessCount, at: r.lastAccessedAt });
      r.accessCount = e.count;
      r.lastAccessedAt = e.at;
    }
    return records;
  }

  private async liveTable(): Promise<Table | null> {
    const meta = await this.registry.meta();
    return meta ? this.registry.open(meta.table) : null;
  }
}

function hitOf(row: StoredMemory, score: number, withVectors: boolean): SearchHit {
  const record = stripVector(row);
  return withVectors ? { record, score, vector: row.vector } : { record, score };
}
