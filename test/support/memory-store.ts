/**
 * A spec-level in-memory MemoryStoreV1 for recall tests: naive Okapi BM25 over `tokenize` with
 * English (Porter) stemming, exact cosine, and the spec's semantics, checked by the store
 * contract (test/support/memory-store.test.ts): scopes required, history only when asked, a bad
 * batch writes nothing, embedder identity enforced. Not a backend: no persistence, no locking
 * across processes.
 */
import { stemmer } from 'stemmer';
import { makeRecord } from '../fixtures/store/records.js';
import { InvalidArgumentError, NotFoundError, StorageError } from '../../src/errors/index.js';
import type {
  ListOptions,
  MemoryFilter,
  MemoryRecord,
  MemoryStoreV1,
  RebuildHandle,
  SearchHit,
  StoreCapabilities,
  StoreMeta,
  StoreStats,
  StoredMemory,
} from '../../src/spec/index.js';
import { cosineSimilarity } from '../../src/core/recall/diversity.js';
import { tokenize } from '../../src/core/recall/tokens.js';

const STOPWORDS = new Set(
  'a an and are as at be by did do does for from has have i in is it me my of on or so that the to was we what when where which who will with you your'.split(
    ' ',
  ),
);

/** A memory for recall tests: fixed times (default 2026-01-01), full confidence, no vector unless given. */
export function makeTestMemory(fields: Partial<StoredMemory> & { id: string; text: string }): StoredMemory {
  const at = fields.createdAt ?? '2026-01-01T00:00:00.000Z';
  return makeRecord({
    dimensions: 0,
    confidence: 1,
    createdAt: at,
    updatedAt: at,
    validFrom: at,
    embeddingModel: fields.vector ? 'test' : 'none',
    ...fields,
  });
}

function strip(memory: StoredMemory): MemoryRecord {
  const { vector: _vector, ...record } = memory;
  return structuredClone(record);
}

export class InMemoryMemoryStore implements MemoryStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'test-memory';
  readonly capabilities: StoreCapabilities;
  private rows = new Map<string, StoredMemory>();
  private meta: StoreMeta | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  /** Tokens by text: texts are immutable per version, so caching by content is always valid. */
  private tokenCache = new Map<string, string[]>();

  constructor(options: { records?: StoredMemory[]; capabilities?: Partial<StoreCapabilities> } = {}) {
    this.capabilities = {
      fullTextSearch: true,
      cjkFullText: true,
      vectorSearch: true,
      approximateVectorIndex: false,
      maxBatchUpsert: 1000,
      needsOptimize: false,
      ...options.capabilities,
    };
    for (const r of options.records ?? []) this.rows.set(r.id, structuredClone(r));
    // Seeded rows stand for a store already written: its embedder is the one that made their vectors.
    const seeded = options.records?.find((r) => r.vector);
    if (options.records?.length)
      this.meta = { embedderId: 'test', dimensions: seeded?.vector?.length ?? 0, schemaVersion: 1, createdAt: new Date().toISOString() };
  }

  async getMeta(): Promise<StoreMeta | null> {
    return this.meta;
  }
  async initMeta(options: { embedderId: string; dimensions: number }): Promise<StoreMeta> {
    if (this.meta && (this.meta.embedderId !== options.embedderId || this.meta.dimensions !== options.dimensions)) {
      throw new StorageError({
        code: 'EMBEDDER_MISMATCH',
        message: `This store was built with embedder ${this.meta.embedderId} (${this.meta.dimensions}-d), not ${options.embedderId} (${options.dimensions}-d): run \`strata reembed\`.`,
      });
    }
    this.meta ??= { ...options, schemaVersion: 1, createdAt: new Date().toISOString() };
    return this.meta;
  }
  async insert(options: { records: StoredMemory[] }): Promise<void> {
    const batch = new Set<string>();
    for (const r of options.records) {
      if (this.rows.has(r.id) || batch.has(r.id)) throw new InvalidArgumentError({ argument: 'records', message: `Duplicate id ${r.id}.` });
      batch.add(r.id);
      this.checkVector(r.vector);
    }
    for (const r of options.records) this.rows.set(r.id, structuredClone(r));
  }
  async update(options: { records: StoredMemory[] }): Promise<void> {
    for (const r of options.records) {
      if (!this.rows.has(r.id)) throw new NotFoundError({ what: 'memory', id: r.id });
      this.checkVector(r.vector);
    }
    // A record given without a vector keeps its stored one.
    for (const r of options.records) this.rows.set(r.id, structuredClone({ ...r, vector: r.vector ?? this.rows.get(r.id)!.vector }));
  }
  async touch(options: { accesses: Array<{ id: string; count: number; at: string }> }): Promise<void> {
    for (const a of options.accesses) {
      const row = this.rows.get(a.id);
      if (row) Object.assign(row, { accessCount: row.accessCount + a.count, lastAccessedAt: a.at });
    }
  }
  async delete(options: { ids: string[] }): Promise<number> {
    return options.ids.filter((id) => this.rows.delete(id)).length;
  }
  async get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredMemory[]> {
    return options.ids.flatMap((id) => {
      const row = this.rows.get(id);
      if (!row) return [];
      return [options.withVectors ? structuredClone(row) : { ...strip(row), vector: null }];
    });
  }
  async existingIds(options: { ids: string[] }): Promise<Set<string>> {
    return new Set(options.ids.filter((id) => this.rows.has(id)));
  }
  async findByHash(options: { scope: string; contentHashes: string[] }): Promise<MemoryRecord[]> {
    return [...this.rows.values()].filter((r) => r.scope === options.scope && options.contentHashes.includes(r.contentHash)).map(strip);
  }
  async list(options: ListOptions): Promise<MemoryRecord[]> {
    const sign = options.order === 'oldest' ? 1 : -1;
    const rows = this.matching(options.filter).sort((a, b) => sign * a.createdAt.localeCompare(b.createdAt));
    const offset = options.offset ?? 0;
    return rows.slice(offset, offset + options.limit).map(strip);
  }
  async count(options: { filter: MemoryFilter }): Promise<number> {
    return this.matching(options.filter).length;
  }
  async *scan(options: { scopes: string[] | null; batchSize?: number; withVectors?: boolean }): AsyncIterable<StoredMemory[]> {
    if (options.scopes !== null) this.matching({ scopes: options.scopes });
    const rows = [...this.rows.values()].filter((r) => options.scopes === null || options.scopes.includes(r.scope));
    const size = options.batchSize ?? 100;
    for (let i = 0; i < rows.length; i += size) {
      yield rows.slice(i, i + size).map((r) => (options.withVectors ? structuredClone(r) : { ...strip(r), vector: null }));
    }
  }

  async searchText(options: { query: string; filter: MemoryFilter; limit: number; withVectors?: boolean }): Promise<SearchHit[]> {
    const terms = [
      ...new Set(
        tokenize(options.query)
          .filter((t) => !STOPWORDS.has(t))
          .map(stemmer),
      ),
    ];
    const docs = this.matching(options.filter).map((r) => ({ r, tokens: this.tokens(r.text) }));
    if (terms.length === 0 || docs.length === 0) return [];
    const avgLength = docs.reduce((n, d) => n + d.tokens.length, 0) / docs.length;
    const df = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
    const hits: SearchHit[] = [];
    for (const { r, tokens } of docs) {
      let score = 0;
      for (const term of terms) {
        const tf = tokens.filter((t) => t === term).length;
        if (tf === 0) continue;
        const n = df.get(term) ?? 0;
        const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
        score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * tokens.length) / avgLength));
      }
      if (score > 0) hits.push({ record: strip(r), score, ...(options.withVectors ? { vector: structuredClone(r.vector) } : {}) });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
  }

  async searchVector(options: { vector: number[]; filter: MemoryFilter; limit: number; withVectors?: boolean }): Promise<SearchHit[]> {
    const rows = this.matching(options.filter);
    if (options.vector.length !== this.meta?.dimensions) {
      throw new InvalidArgumentError({
        argument: 'vector',
        message: `The query vector has ${options.vector.length} dimensions; the store holds ${this.meta?.dimensions ?? 0}.`,
      });
    }
    return rows
      .filter((r) => r.vector && r.vector.length === options.vector.length)
      .map((r) => ({
        record: strip(r),
        score: cosineSimilarity(options.vector, r.vector!),
        ...(options.withVectors ? { vector: structuredClone(r.vector) } : {}),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit);
  }

  async withWriteLock<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }
  async optimize(): Promise<{ indexes: string[] }> {
    return { indexes: [] };
  }
  async stats(): Promise<StoreStats> {
    const rows = [...this.rows.values()];
    const tally = (key: (r: StoredMemory) => string) =>
      rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [key(r)]: (acc[key(r)] ?? 0) + 1 }), {});
    return {
      rows: rows.length,
      current: rows.filter((r) => r.validTo === null).length,
      byScope: tally((r) => r.scope),
      byCategory: tally((r) => r.category),
      indexes: [],
    };
  }
  async beginRebuild(options: { embedderId: string; dimensions: number }): Promise<RebuildHandle> {
    const staged = new Map<string, StoredMemory>();
    return {
      insert: async ({ records }) => {
        for (const r of records) {
          if (r.vector && r.vector.length !== options.dimensions)
            throw new InvalidArgumentError({
              argument: 'records',
              message: `A vector has ${r.vector.length} dimensions, not ${options.dimensions}.`,
            });
          staged.set(r.id, structuredClone(r));
        }
      },
      commit: async () => {
        this.rows = staged;
        this.tokenCache.clear();
        this.meta = { ...options, schemaVersion: 1, createdAt: new Date().toISOString() };
      },
      abort: async () => staged.clear(),
    };
  }
  async close(): Promise<void> {}

  private tokens(text: string): string[] {
    let tokens = this.tokenCache.get(text);
    if (!tokens) this.tokenCache.set(text, (tokens = tokenize(text).map(stemmer)));
    return tokens;
  }

  private checkVector(vector: number[] | null): void {
    const dims = this.meta?.dimensions ?? 0;
    if (vector !== null && vector.length !== dims) {
      throw new InvalidArgumentError({
        argument: 'records',
        message: `A vector has ${vector.length} dimensions; the store holds ${dims}.`,
      });
    }
  }

  private matching(filter: MemoryFilter): StoredMemory[] {
    if (!filter.scopes || filter.scopes.length === 0) {
      throw new InvalidArgumentError({
        code: 'INVALID_SCOPE',
        argument: 'filter.scopes',
        message: 'filter.scopes is required and must be non-empty.',
      });
    }
    if (filter.categories?.length === 0) return [];
    return [...this.rows.values()].filter(
      (r) =>
        filter.scopes.includes(r.scope) &&
        (filter.includeHistory || r.validTo === null) &&
        (!filter.categories || filter.categories.includes(r.category)) &&
        (!filter.ids || filter.ids.includes(r.id)) &&
        (!filter.tags?.length || filter.tags.some((t) => r.tags.includes(t))) &&
        (!filter.createdAfter || r.createdAt > filter.createdAfter) &&
        (!filter.createdBefore || r.createdAt < filter.createdBefore) &&
        (!filter.sourceKind || r.source.kind === filter.sourceKind),
    );
  }
}
