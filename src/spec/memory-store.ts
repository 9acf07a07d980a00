import type { MemoryCategory, MemoryRecord, StoredMemory } from './memory-record.js';

/**
 * Memory store specification, version 1. Filters are structured values, never query strings:
 * each backend translates and escapes them itself, so no caller value reaches an expression raw.
 */
export interface StoreCapabilities {
  fullTextSearch: boolean;
  /** Full-text search tokenises Chinese/Japanese as words. */
  cjkFullText: boolean;
  vectorSearch: boolean;
  /** Builds an approximate vector index past `annThreshold` rows. */
  approximateVectorIndex: boolean;
  /** Rows per insert call the backend handles well. */
  maxBatchUpsert: number;
  /** Needs `optimize()` to be called periodically to stay fast. */
  needsOptimize: boolean;
}

export interface MemoryFilter {
  /** Required and non-empty: stores never read "everything" by omission. */
  scopes: string[];
  /** Include superseded/expired memories (validTo set). Default false. */
  includeHistory?: boolean;
  categories?: MemoryCategory[];
  ids?: string[];
  tags?: string[];
  createdAfter?: string;
  createdBefore?: string;
  sourceKind?: string;
}

export interface StoreMeta {
  embedderId: string;
  dimensions: number;
  schemaVersion: number;
  createdAt: string;
}

export interface SearchHit {
  record: MemoryRecord;
  /** Backend-native score: BM25 for text, cosine similarity (1 - distance) for vectors. */
  score: number;
  /** The stored embedding, when the search was asked for it (`withVectors`). */
  vector?: number[] | null;
}

export interface SearchOptions {
  filter: MemoryFilter;
  limit: number;
  /** Return each hit's stored embedding too, saving the caller a second round trip. */
  withVectors?: boolean;
}

export interface ListOptions {
  filter: MemoryFilter;
  limit: number;
  offset?: number;
  /** Default: newest first by createdAt. */
  order?: 'newest' | 'oldest';
}

export interface StoreStats {
  rows: number;
  current: number;
  byScope: Record<string, number>;
  byCategory: Record<string, number>;
  fragments?: number;
  indexes: Array<{ name: string; type: string; columns: string[] }>;
  diskBytes?: number;
}

export interface RebuildHandle {
  insert(options: { records: StoredMemory[] }): Promise<void>;
  /** Atomically replaces the live table with the rebuilt one. */
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface MemoryStoreV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly capabilities: StoreCapabilities;

  /** Reads store metadata; null for a store that has never been written. */
  getMeta(): Promise<StoreMeta | null>;
  /** Records embedder identity on first write; fails if it differs from what is recorded. */
  initMeta(options: { embedderId: string; dimensions: number }): Promise<StoreMeta>;

  insert(options: { records: StoredMemory[] }): Promise<void>;
  /** Replaces whole records by id (all fields, vector included when given). */
  update(options: { records: StoredMemory[] }): Promise<void>;
  /** Updates access statistics without touching anything else. */
  touch(options: { accesses: Array<{ id: string; count: number; at: string }> }): Promise<void>;
  delete(options: { ids: string[] }): Promise<number>;

  get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredMemory[]>;
  /** Ids already present (used for idempotent import). */
  existingIds(options: { ids: string[] }): Promise<Set<string>>;
  findByHash(options: { scope: string; contentHashes: string[] }): Promise<MemoryRecord[]>;
  list(options: ListOptions): Promise<MemoryRecord[]>;
  count(options: { filter: MemoryFilter }): Promise<number>;
  /** Streams every row (all scopes when `scopes` is null), for export and re-embedding. */
  scan(options: { scopes: string[] | null; batchSize?: number; withVectors?: boolean }): AsyncIterable<StoredMemory[]>;

  searchText(options: SearchOptions & { query: string }): Promise<SearchHit[]>;
  searchVector(options: SearchOptions & { vector: number[] }): Promise<SearchHit[]>;

  /**
   * Runs `fn` holding the store's cross-process write lock (read-check-write paths: dedupe then
   * insert, update). Stale locks left by dead processes are recovered.
   */
  withWriteLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Compacts fragments, prunes old versions and (re)builds indexes as the row count requires. */
  optimize(options?: { force?: boolean }): Promise<{ fragmentsBefore?: number; fragmentsAfter?: number; indexes: string[] }>;
  /**
   * Row counts, per scope and per category, plus storage health. With a `filter` only matching
   * rows are counted (`includeHistory` false: current memories only), so a caller limited to some
   * scopes never sees counts from others; storage figures stay whole-table.
   */
  stats(options?: { filter?: MemoryFilter }): Promise<StoreStats>;
  /** Starts writing a replacement table with another embedder (for `reembed`). */
  beginRebuild(options: { embedderId: string; dimensions: number }): Promise<RebuildHandle>;
  close(): Promise<void>;
}
