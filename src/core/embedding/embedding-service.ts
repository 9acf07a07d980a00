import { LRUCache } from 'lru-cache';
import { InvalidArgumentError, StrataError } from '../../errors/index.js';
import { retryWithBackoff } from '../../provider-utils/index.js';
import type { EmbedderV1 } from '../../spec/index.js';

/**
 * The core's entry to embeddings: splits by the embedder's `maxBatchSize`, caps concurrency,
 * preserves order, retries each call through the shared policy and caches query vectors.
 * Retries do not compound with an adapter's own: an adapter's exhausted retries surface as a
 * RetryError, which is not retryable.
 */
export interface EmbeddingServiceOptions {
  embedder: EmbedderV1;
  /** Query vectors kept (LRU, keyed by text). 0 disables the cache. Default 1000. */
  queryCacheSize?: number;
  /** Concurrent `doEmbed` calls; 1 when the embedder does not support parallel calls. Default 2. */
  maxParallelCalls?: number;
  /** Retries per call. Default 2. */
  maxRetries?: number;
  /** First backoff delay. Default 1000 ms. */
  retryInitialDelayMs?: number;
}

export interface EmbeddingProgress {
  done: number;
  total: number;
}

export interface EmbeddingServiceStats {
  cacheHits: number;
  cacheMisses: number;
  cacheSize: number;
  calls: number;
}

export interface EmbeddingService {
  readonly embedder: EmbedderV1;
  /** False for lexical-only embedders (dimensions 0). */
  readonly producesVectors: boolean;
  /** The query's vector, or null when the embedder produces none. */
  embedQuery(options: { text: string; abortSignal?: AbortSignal }): Promise<number[] | null>;
  /** One vector per text in input order, or null when the embedder produces none. */
  embedDocuments(options: {
    texts: string[];
    abortSignal?: AbortSignal;
    onProgress?: (progress: EmbeddingProgress) => void;
  }): Promise<number[][] | null>;
  stats(): EmbeddingServiceStats;
  clearCache(): void;
}

/** An embedder whose length is still unknown (learned on first call) still produces vectors. */
function knownDimensions(embedder: EmbedderV1): number | undefined {
  try {
    return embedder.dimensions;
  } catch {
    return undefined;
  }
}

export function createEmbeddingService(options: EmbeddingServiceOptions): EmbeddingService {
  const { embedder } = options;
  const cacheSize = options.queryCacheSize ?? 1000;
  const parallel = embedder.supportsParallelCalls ? (options.maxParallelCalls ?? 2) : 1;
  if (!Number.isInteger(parallel) || parallel < 1) {
    throw new InvalidArgumentError({
      argument: 'maxParallelCalls',
      message: `maxParallelCalls must be a positive whole number, got ${parallel}.`,
    });
  }
  if (!Number.isInteger(cacheSize) || cacheSize < 0) {
    throw new InvalidArgumentError({
      argument: 'queryCacheSize',
      message: `queryCacheSize must be a whole number >= 0, got ${cacheSize}.`,
    });
  }
  const cache = cacheSize > 0 ? new LRUCache<string, number[]>({ max: cacheSize }) : undefined;
  const counters = { cacheHits: 0, cacheMisses: 0, calls: 0 };
  const producesVectors = knownDimensions(embedder) !== 0;

  async function call(texts: string[], kind: 'query' | 'document', abortSignal: AbortSignal | undefined): Promise<number[][]> {
    counters.calls++;
    const { embeddings } = await retryWithBackoff(() => embedder.doEmbed({ texts, kind, abortSignal }), {
      maxRetries: options.maxRetries,
      initialDelayMs: options.retryInitialDelayMs,
      abortSignal,
      operation: `Embedding with ${embedder.id}`,
    });
    if (embeddings.length !== texts.length) {
      throw new StrataError({
        code: 'PROVIDER_CALL',
        message: `Embedder ${embedder.id} returned ${embeddings.length} vectors for ${texts.length} texts.`,
      });
    }
    const expected = knownDimensions(embedder);
    const bad = embeddings.find((v) => v.length !== (expected ?? embeddings[0]?.length));
    if (bad) {
      throw new StrataError({
        code: 'PROVIDER_DIMENSION_MISMATCH',
        message: `Embedder ${embedder.id} returned a ${bad.length}-dimensional vector where ${expected ?? embeddings[0]?.length} was expected; check its dimensions setting.`,
      });
    }
    return embeddings;
  }

  return {
    embedder,
    producesVectors,
    async embedQuery({ text, abortSignal }) {
      if (!producesVectors) return null;
      const cached = cache?.get(text);
      if (cached) {
        counters.cacheHits++;
        return [...cached]; // a caller mutating its copy must not corrupt the cache
      }
      counters.cacheMisses++;
      const [vector] = await call([text], 'query', abortSignal);
      if (!vector) throw new StrataError({ code: 'PROVIDER_CALL', message: `Embedder ${embedder.id} returned no vector for the query.` });
      cache?.set(text, [...vector]);
      return vector;
    },
    async embedDocuments({ texts, abortSignal, onProgress }) {
      if (!producesVectors) return null;
      abortSignal?.throwIfAborted();
      const size = Math.max(1, embedder.maxBatchSize);
      const batches: Array<{ start: number; texts: string[] }> = [];
      for (let start = 0; start < texts.length; start += size) batches.push({ start, texts: texts.slice(start, start + size) });
      const out = new Array<number[]>(texts.length);
      // A failure stops the other workers' in-flight calls instead of letting them run to the end.
      const stop = new AbortController();
      const signal = abortSignal ? AbortSignal.any([abortSignal, stop.signal]) : stop.signal;
      let next = 0;
      let done = 0;
      let failure: { error: unknown } | undefined;
      const worker = async (): Promise<void> => {
        while (!failure && next < batches.length) {
          const batch = batches[next++] as { start: number; texts: string[] };
          try {
            const vectors = await call(batch.texts, 'document', signal);
            vectors.forEach((v, i) => (out[batch.start + i] = v));
            done += batch.texts.length;
            onProgress?.({ done, total: texts.length });
          } catch (error) {
            failure ??= { error };
            stop.abort();
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(parallel, batches.length) }, worker));
      if (failure) {
        abortSignal?.throwIfAborted();
        throw failure.error;
      }
      return out;
    },
    stats: () => ({ ...counters, cacheSize: cache?.size ?? 0 }),
    clearCache: () => cache?.clear(),
  };
}
