/**
 * An in-memory ConversationIndexV2 for engine tests: naive BM25 over `tokenize`, exact cosine, and
 * the spec's filter and upsert semantics. Handles made from one `MemoryConversationStorage` share
 * their rows, like two processes on one index. Not a backend: nothing persists.
 */
import { InvalidArgumentError, StorageError } from '../../src/errors/index.js';
import { cosineSimilarity } from '../../src/core/recall/diversity.js';
import { tokenize } from '../../src/core/recall/tokens.js';
import {
  CONVERSATION_INDEX_SCHEMA_VERSION,
  type ConversationDocument,
  type ConversationFilter,
  type ConversationIndexHit,
  type ConversationIndexMeta,
  type ConversationIndexV2,
  type ConversationSessionRef,
  type StoredConversationDocument,
} from '../../src/spec/conversation-index.js';
import type { L0Position } from '../../src/spec/l0-log.js';

export interface MemoryConversationStorage {
  rows: Map<string, StoredConversationDocument>;
  meta: ConversationIndexMeta | null;
  watermark: L0Position | undefined;
  lock: Promise<unknown>;
}

export function memoryConversationStorage(): MemoryConversationStorage {
  return { rows: new Map(), meta: null, watermark: undefined, lock: Promise.resolve() };
}

const copy = <T>(v: T): T => structuredClone(v);

function matches(d: ConversationDocument, f: ConversationFilter): boolean {
  return (
    (f.agentIds === undefined || f.agentIds.includes(d.record.agentId)) &&
    (f.sessionKey === undefined || d.record.sessionKey === f.sessionKey) &&
    (f.roles === undefined || f.roles.includes(d.record.role))
  );
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidArgumentError({ argument: 'limit', message: 'limit must be an integer from 1 to 1000.' });
}

export class MemoryConversationIndex implements ConversationIndexV2 {
  readonly specificationVersion = 'v2' as const;
  readonly provider = 'test-memory';
  readonly capabilities = { fullTextSearch: true, vectorSearch: true, concurrentWriters: true, maxBatchUpsert: 10_000 };

  constructor(private readonly s: MemoryConversationStorage = memoryConversationStorage()) {}

  async getMeta() {
    return this.s.meta ? copy(this.s.meta) : null;
  }

  async initMeta(options: { embedderId: string; dimensions: number }) {
    const meta = this.s.meta;
    if (meta && (meta.embedderId !== options.embedderId || meta.dimensions !== options.dimensions)) {
      throw new StorageError({
        code: 'EMBEDDER_MISMATCH',
        message: `built with ${meta.embedderId}, not ${options.embedderId}: reset and re-index`,
      });
    }
    this.s.meta ??= { ...options, schemaVersion: CONVERSATION_INDEX_SCHEMA_VERSION, createdAt: new Date().toISOString() };
    return copy(this.s.meta);
  }

  async upsert(options: { documents: ConversationDocument[]; watermark?: L0Position }) {
    if (options.documents.length > 0 && !this.s.meta) throw new StorageError({ message: 'not initialised: call initMeta first' });
    let inserted = 0;
    let updated = 0;
    for (const d of options.documents) {
      const old = this.s.rows.get(d.id);
      if (old && old.text === d.text && old.embeddingText === d.embeddingText) continue;
      if (old) updated += 1;
      else inserted += 1;
      // The vector describes the embedding text: kept while it holds.
      this.s.rows.set(d.id, { ...copy(d), vector: old && old.embeddingText === d.embeddingText ? old.vector : null });
    }
    if (options.watermark !== undefined) this.s.watermark = options.watermark;
    return { inserted, updated };
  }

  async watermark() {
    return this.s.watermark;
  }

  async get(options: { ids: string[]; withVectors?: boolean }) {
    return options.ids.flatMap((id) => {
      const row = this.s.rows.get(id);
      return row ? [{ ...copy(row), vector: options.withVectors ? copy(row.vector) : null }] : [];
    });
  }

  async existingIds(options: { ids: string[] }) {
    return new Set(options.ids.filter((id) => this.s.rows.has(id)));
  }

  async latestOfSessions(options: { sessions: ConversationSessionRef[]; perSession?: number }) {
    const keep = options.perSession ?? 1;
    const out: ConversationDocument[] = [];
    for (const s of options.sessions) {
      const rows = [...this.s.rows.values()].filter(
        (r) => r.record.host === s.host && r.record.agentId === s.agentId && r.record.sessionId === s.sessionId,
      );
      out.push(
        ...rows
          .sort((a, b) => (a.position < b.position ? -1 : 1))
          .slice(-keep)
          .map(({ vector: _v, ...d }) => copy(d)),
      );
    }
    return out.sort((a, b) => (a.position < b.position ? -1 : 1));
  }

  async unembedded(options: { limit: number }) {
    if (!this.s.meta?.dimensions) return [];
    return [...this.s.rows.values()]
      .filter((r) => r.vector === null)
      .slice(0, options.limit)
      .map(({ vector: _v, ...d }) => copy(d));
  }

  async setVectors(options: { vectors: Array<{ id: string; embeddingText: string; vector: number[] }> }) {
    let updated = 0;
    for (const v of options.vectors) {
      const row = this.s.rows.get(v.id);
      if (!row || row.embeddingText !== v.embeddingText || !this.s.meta?.dimensions) continue;
      row.vector = [...v.vector];
      updated += 1;
    }
    return { updated };
  }

  async searchText(options: {
    query: string;
    limit: number;
    filter: ConversationFilter;
    withVectors?: boolean;
  }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    const terms = [...new Set(tokenize(options.query))];
    const rows = [...this.s.rows.values()];
    if (terms.length === 0 || rows.length === 0) return [];
    const docs = rows.map((r) => ({ r, tokens: tokenize(r.text) }));
    const avg = docs.reduce((n, d) => n + d.tokens.length, 0) / docs.length || 1;
    const df = new Map(terms.map((t) => [t, docs.filter((d) => d.tokens.includes(t)).length]));
    const scored = docs
      .filter((d) => matches(d.r, options.filter))
      .map((d) => {
        let score = 0;
        for (const t of terms) {
          const tf = d.tokens.filter((x) => x === t).length;
          if (tf === 0) continue;
          const n = df.get(t) ?? 0;
          const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.tokens.length) / avg));
        }
        return { d, score };
      });
    return scored
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit)
      .map(({ d, score }) => ({
        document: copy({ id: d.r.id, record: d.r.record, position: d.r.position, text: d.r.text, embeddingText: d.r.embeddingText }),
        score,
        ...(options.withVectors ? { vector: copy(d.r.vector) } : {}),
      }));
  }

  async searchVector(options: { vector: number[]; limit: number; filter: ConversationFilter }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    return [...this.s.rows.values()]
      .filter((r) => r.vector !== null && matches(r, options.filter))
      .map((r) => ({ r, score: cosineSimilarity(options.vector, r.vector!) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit)
      .map(({ r, score }) => ({
        document: copy({ id: r.id, record: r.record, position: r.position, text: r.text, embeddingText: r.embeddingText }),
        score,
        vector: copy(r.vector),
      }));
  }

  async count(options: { filter?: ConversationFilter; embedded?: boolean } = {}) {
    return [...this.s.rows.values()].filter(
      (r) =>
        matches(r, options.filter ?? {}) &&
        (options.embedded === undefined || (r.vector !== null || !this.s.meta?.dimensions) === options.embedded),
    ).length;
  }

  withWriteLock<T>(fn: () => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
    // Waiting is bounded by timeoutMs: a caller that gives up never runs fn.
    let timer: NodeJS.Timeout | undefined;
    let gaveUp = false;
    const locked = () =>
      new StorageError({ code: 'STORE_LOCKED', isRetryable: true, message: 'the conversation index is locked by another writer' });
    const run = this.s.lock.then(() => {
      clearTimeout(timer);
      if (gaveUp) throw locked();
      return fn();
    });
    this.s.lock = run.catch(() => undefined);
    if (options.timeoutMs === undefined) return run;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(locked());
      }, options.timeoutMs);
    });
    return Promise.race([run, timeout]);
  }

  async reset() {
    this.s.rows.clear();
    this.s.meta = null;
    this.s.watermark = undefined;
  }

  async optimize() {
    return false;
  }
  async close() {}
}
