/**
 * Candidate retrieval: the lexical search and the (embed + vector search) path run in parallel.
 * Either path may be missing (store capabilities) or fail (embedder down, timeout); recall then
 * continues with the other and reports why. Only a caller abort, or both paths failing, throws.
 */
import { withDeadline } from '../../util/deadline.js';
import { StrataError } from '../../errors/index.js';
import type { MemoryFilter, MemoryStoreV1, SearchHit } from '../../spec/index.js';
import type { ChannelReport } from './types.js';

export type EmbedQuery = (options: { text: string; abortSignal?: AbortSignal }) => Promise<number[] | null>;

export interface ChannelOutcome {
  /** null when the channel did not run or failed. */
  hits: SearchHit[] | null;
  report: ChannelReport;
  error?: unknown;
}

export interface RetrieveOutcome {
  lexical: ChannelOutcome;
  vector: ChannelOutcome;
  queryVector: number[] | null;
  timings: Record<string, number>;
}

class EmbedTimeoutError extends StrataError {
  constructor(ms: number) {
    super({ code: 'TIMEOUT', message: `query embedding timed out after ${ms} ms`, isRetryable: true });
    this.name = 'EmbedTimeoutError';
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
}

async function timed<T>(timings: Record<string, number>, key: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    timings[key] = performance.now() - start;
  }
}

/** Runs `embedQuery` with a deadline; resolves to null (with a note) on timeout, failure or an unusable vector. */
export async function embedWithTimeout(options: {
  embedQuery: EmbedQuery;
  text: string;
  timeoutMs: number;
  abortSignal?: AbortSignal;
}): Promise<{ vector: number[] | null; note?: string }> {
  try {
    const vector = await withDeadline(
      { timeoutMs: options.timeoutMs, abortSignal: options.abortSignal, onTimeout: () => new EmbedTimeoutError(options.timeoutMs) },
      (signal) => options.embedQuery({ text: options.text, abortSignal: signal }),
    );
    if (vector === null || vector === undefined) return { vector: null, note: 'embedder returned no query vector' };
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every(Number.isFinite)) {
      return { vector: null, note: 'embedder returned an unusable query vector (empty or non-finite)' };
    }
    return { vector };
  } catch (error) {
    if (options.abortSignal?.aborted) throw error;
    return { vector: null, note: `query embedding failed: ${message(error)}` };
  }
}

export async function retrieveCandidates(options: {
  store: MemoryStoreV1;
  embedQuery: EmbedQuery;
  query: string;
  filter: MemoryFilter;
  pool: number;
  embedTimeoutMs: number;
  /** Which channels run; 'hybrid' (default) runs both. */
  mode?: 'hybrid' | 'lexical' | 'vector';
  abortSignal?: AbortSignal;
}): Promise<RetrieveOutcome> {
  const { store, filter, pool, abortSignal } = options;
  const timings: Record<string, number> = {};
  let queryVector: number[] | null = null;

  const lexicalPath = async (): Promise<ChannelOutcome> => {
    if (options.mode === 'vector') return { hits: null, report: { used: false, hits: 0, note: 'lexical channel off (mode vector)' } };
    if (!store.capabilities.fullTextSearch)
      return { hits: null, report: { used: false, hits: 0, note: `store ${store.provider} has no full-text search` } };
    try {
      const hits = await timed(timings, 'lexical', () =>
        store.searchText({ query: options.query, filter, limit: pool, withVectors: options.mode !== 'lexical' }),
      );
      return { hits, report: { used: true, hits: hits.length } };
    } catch (error) {
      throwIfAborted(abortSignal);
      return { hits: null, error, report: { used: false, hits: 0, note: `lexical search failed: ${message(error)}` } };
    }
  };

  const vectorPath = async (): Promise<ChannelOutcome> => {
    if (options.mode === 'lexical') return { hits: null, report: { used: false, hits: 0, note: 'vector channel off (mode lexical)' } };
    if (!store.capabilities.vectorSearch)
      return { hits: null, report: { used: false, hits: 0, note: `store ${store.provider} has no vector search (lexical only)` } };
    const embedded = await timed(timings, 'embed', () =>
      embedWithTimeout({ embedQuery: options.embedQuery, text: options.query, timeoutMs: options.embedTimeoutMs, abortSignal }),
    );
    if (!embedded.vector) return { hits: null, report: { used: false, hits: 0, note: `${embedded.note}; continued lexical-only` } };
    throwIfAborted(abortSignal);
    queryVector = embedded.vector;
    try {
      const vector = embedded.vector;
      const hits = await timed(timings, 'vector', () => store.searchVector({ vector, filter, limit: pool, withVectors: true }));
      return { hits, report: { used: true, hits: hits.length } };
    } catch (error) {
      throwIfAborted(abortSignal);
      queryVector = null;
      return {
        hits: null,
        error,
        report: { used: false, hits: 0, note: `vector search failed: ${message(error)}; continued lexical-only` },
      };
    }
  };

  const [lexical, vector] = await Promise.all([lexicalPath(), vectorPath()]);
  throwIfAborted(abortSignal);
  // Both paths attempted and at least one raised: there is nothing to answer from, so surface the error.
  if (!lexical.hits && !vector.hits && (lexical.error ?? vector.error)) throw lexical.error ?? vector.error;
  return { lexical, vector, queryVector, timings };
}
