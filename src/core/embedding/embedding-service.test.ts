import { describe, expect, it } from 'vitest';
import { fakeEmbedding } from '../../../test/support/fake-embeddings.js';
import { InvalidArgumentError, ProviderCallError, StrataError } from '../../errors/index.js';
import { isAbortError } from '../../provider-utils/index.js';
import type { EmbedderV1, EmbedKind } from '../../spec/index.js';
import { createEmbeddingService } from './embedding-service.js';

/** A spec-level embedder that records every call and how many ran at once. */
function recordingEmbedder(options: {
  dimensions?: number;
  maxBatchSize?: number;
  supportsParallelCalls?: boolean;
  /** Per call (0-based): milliseconds to wait, or an error to throw. */
  behaviour?: (call: number, texts: string[]) => number | Error;
  vectorLength?: number;
}) {
  const dims = options.dimensions ?? 8;
  const calls: Array<{ texts: string[]; kind: EmbedKind }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const embedder: EmbedderV1 = {
    specificationVersion: 'v1',
    id: 'test:recording',
    dimensions: dims,
    maxBatchSize: options.maxBatchSize ?? 3,
    supportsParallelCalls: options.supportsParallelCalls ?? true,
    distinguishesQueries: false,
    isRemote: true,
    async doEmbed({ texts, kind, abortSignal }) {
      const call = calls.push({ texts, kind }) - 1;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const b = options.behaviour?.(call, texts) ?? 0;
        if (b instanceof Error) throw b;
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(resolve, b);
          abortSignal?.addEventListener('abort', () => (clearTimeout(t), reject(abortSignal.reason)), { once: true });
        });
        return { embeddings: texts.map((t) => fakeEmbedding(t, options.vectorLength ?? dims)) };
      } finally {
        inFlight--;
      }
    },
  };
  return { embedder, calls, maxInFlight: () => maxInFlight };
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => `document ${i}`);
const serverError = () => new ProviderCallError({ message: 'HTTP 500', url: 'http://x', statusCode: 500 });

describe('embedding service: queries', () => {
  it('embeds a query as kind "query" and caches it by text', async () => {
    const { embedder, calls } = recordingEmbedder({});
    const service = createEmbeddingService({ embedder });
    const first = await service.embedQuery({ text: 'coffee' });
    expect(first).toEqual(fakeEmbedding('coffee', 8));
    first?.fill(0); // the caller's copy; the cache must not change
    expect(await service.embedQuery({ text: 'coffee' })).toEqual(fakeEmbedding('coffee', 8));
    expect(calls).toEqual([{ texts: ['coffee'], kind: 'query' }]);
    expect(service.stats()).toMatchObject({ cacheHits: 1, cacheMisses: 1, cacheSize: 1, calls: 1 });
  });

  it('evicts the least recently used query', async () => {
    const { embedder, calls } = recordingEmbedder({});
    const service = createEmbeddingService({ embedder, queryCacheSize: 2 });
    for (const text of ['a', 'b', 'a', 'c', 'a', 'b']) await service.embedQuery({ text });
    // 'b' was evicted by 'c' (a was used more recently), so it is embedded twice.
    expect(calls.map((c) => c.texts[0])).toEqual(['a', 'b', 'c', 'b']);
    expect(service.stats()).toMatchObject({ cacheHits: 2, cacheMisses: 4 });
  });

  it('returns null for a lexical-only embedder without calling it', async () => {
    const { embedder, calls } = recordingEmbedder({ dimensions: 0 });
    const service = createEmbeddingService({ embedder });
    expect(service.producesVectors).toBe(false);
    expect(await service.embedQuery({ text: 'x' })).toBeNull();
    expect(await service.embedDocuments({ texts: ['x'] })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('treats an embedder whose length is not known yet as producing vectors', async () => {
    const { embedder } = recordingEmbedder({});
    const unknown = Object.create(embedder, {
      dimensions: {
        get: () => {
          throw new Error('not known yet');
        },
      },
    }) as EmbedderV1;
    const service = createEmbeddingService({ embedder: unknown });
    expect(service.producesVectors).toBe(true);
    expect(await service.embedQuery({ text: 'x' })).toHaveLength(8);
  });
});

describe('embedding service: documents', () => {
  it('splits by maxBatchSize, keeps input order and reports progress', async () => {
    // Later batches finish first, so order must come from positions, not completion.
    const { embedder, calls } = recordingEmbedder({ maxBatchSize: 3, behaviour: (call) => 40 - call * 10 });
    const service = createEmbeddingService({ embedder, maxParallelCalls: 3 });
    const progress: Array<[number, number]> = [];
    const vectors = await service.embedDocuments({ texts: texts(7), onProgress: (p) => progress.push([p.done, p.total]) });
    expect(calls.map((c) => c.texts.length)).toEqual([3, 3, 1]);
    expect(calls.every((c) => c.kind === 'document')).toBe(true);
    expect(vectors).toEqual(texts(7).map((t) => fakeEmbedding(t, 8)));
    expect(progress.map(([, total]) => total)).toEqual([7, 7, 7]);
    expect(progress.at(-1)?.[0]).toBe(7);
  });

  it('runs at most maxParallelCalls at once, and one when the embedder is sequential', async () => {
    const parallel = recordingEmbedder({ maxBatchSize: 1, behaviour: () => 15 });
    await createEmbeddingService({ embedder: parallel.embedder, maxParallelCalls: 2 }).embedDocuments({ texts: texts(6) });
    expect(parallel.maxInFlight()).toBe(2);
    const sequential = recordingEmbedder({ maxBatchSize: 1, supportsParallelCalls: false, behaviour: () => 5 });
    await createEmbeddingService({ embedder: sequential.embedder, maxParallelCalls: 4 }).embedDocuments({ texts: texts(4) });
    expect(sequential.maxInFlight()).toBe(1);
  });

  it('retries a retryable failure of one batch', async () => {
    const { embedder, calls } = recordingEmbedder({ maxBatchSize: 2, behaviour: (call) => (call === 0 ? serverError() : 0) });
    const vectors = await createEmbeddingService({ embedder, maxParallelCalls: 1, retryInitialDelayMs: 1 }).embedDocuments({
      texts: texts(4),
    });
    expect(vectors).toHaveLength(4);
    expect(calls.map((c) => c.texts)).toEqual([
      ['document 0', 'document 1'],
      ['document 0', 'document 1'],
      ['document 2', 'document 3'],
    ]);
  });

  it('stops at the first non-retryable failure', async () => {
    const fatal = new InvalidArgumentError({ argument: 'texts', message: 'too long' });
    const { embedder, calls } = recordingEmbedder({ maxBatchSize: 1, behaviour: (call) => (call === 0 ? fatal : 20) });
    const error = await createEmbeddingService({ embedder, maxParallelCalls: 2 })
      .embedDocuments({ texts: texts(10) })
      .catch((e: unknown) => e);
    expect(error).toBe(fatal);
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('honours the caller abort', async () => {
    const { embedder, calls } = recordingEmbedder({ maxBatchSize: 1, behaviour: () => 10_000 });
    const controller = new AbortController();
    const pending = createEmbeddingService({ embedder })
      .embedDocuments({ texts: texts(5), abortSignal: controller.signal })
      .catch((e: unknown) => e);
    await expect.poll(() => calls.length).toBe(2);
    controller.abort();
    expect(isAbortError(await pending)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('rejects vectors of the wrong length', async () => {
    const { embedder } = recordingEmbedder({ dimensions: 8, vectorLength: 4 });
    const error = await createEmbeddingService({ embedder })
      .embedDocuments({ texts: ['a'] })
      .catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_DIMENSION_MISMATCH');
  });

  it('returns an empty list for no texts, and validates options', async () => {
    const { embedder, calls } = recordingEmbedder({});
    expect(await createEmbeddingService({ embedder }).embedDocuments({ texts: [] })).toEqual([]);
    expect(calls).toHaveLength(0);
    expect(() => createEmbeddingService({ embedder, maxParallelCalls: 0 })).toThrow(InvalidArgumentError);
    expect(() => createEmbeddingService({ embedder, queryCacheSize: -1 })).toThrow(InvalidArgumentError);
  });
});
