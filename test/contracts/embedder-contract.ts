import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingService } from '../../src/core/embedding/index.js';
import { StrataError } from '../../src/errors/index.js';
import { isAbortError } from '../../src/provider-utils/index.js';
import type { EmbedderV1 } from '../../src/spec/index.js';
import { cosine } from '../support/fake-embeddings.js';

/**
 * Behaviour every EmbedderV1 must show. Each backend's test file calls `runEmbedderContract`;
 * a skipped test must say why.
 */
export const EMBEDDER_CONTRACT_TESTS = [
  'declares the v1 spec',
  'returns one vector per text with the declared dimensions',
  'preserves input order',
  'accepts query and document kinds',
  'returns no vectors for empty input',
  'rejects more texts than maxBatchSize in one call',
  'splits large inputs into batches through the embedding service',
  'rejects an aborted signal',
] as const;
export type EmbedderContractTest = (typeof EMBEDDER_CONTRACT_TESTS)[number];

export interface ContractSkip<T extends string> {
  tests: T[];
  reason: string;
}

export interface EmbedderContractOptions {
  name: string;
  create: () => EmbedderV1 | Promise<EmbedderV1>;
  skip?: Array<ContractSkip<EmbedderContractTest>>;
}

const TEXTS = ['I like coffee in the morning', 'The train leaves at noon', 'Quarterly revenue grew by ten percent'];

export function runEmbedderContract(options: EmbedderContractOptions): void {
  const skipped = new Map<string, string>();
  for (const s of options.skip ?? []) {
    if (!s.reason.trim()) throw new Error(`runEmbedderContract(${options.name}): every skip needs a reason`);
    for (const t of s.tests) skipped.set(t, s.reason);
  }
  const test = (name: EmbedderContractTest, fn: () => Promise<void>) => {
    const reason = skipped.get(name);
    if (reason) it.skip(`${name} (skipped: ${reason})`, fn);
    else it(name, fn);
  };

  describe(`embedder contract: ${options.name}`, () => {
    let embedder: EmbedderV1;
    beforeAll(async () => {
      embedder = await options.create();
    });
    afterAll(async () => {
      await embedder?.close?.();
    });

    test('declares the v1 spec', async () => {
      expect(embedder.specificationVersion).toBe('v1');
      expect(embedder.id).toMatch(/\S/);
      expect(Number.isInteger(embedder.dimensions) && embedder.dimensions >= 0).toBe(true);
      expect(Number.isInteger(embedder.maxBatchSize) && embedder.maxBatchSize >= 1).toBe(true);
      for (const flag of [embedder.supportsParallelCalls, embedder.distinguishesQueries, embedder.isRemote]) {
        expect(typeof flag).toBe('boolean');
      }
    });

    test('returns one vector per text with the declared dimensions', async () => {
      const { embeddings } = await embedder.doEmbed({ texts: TEXTS, kind: 'document' });
      expect(embeddings).toHaveLength(TEXTS.length);
      for (const v of embeddings) {
        expect(v).toHaveLength(embedder.dimensions);
        expect(v.every(Number.isFinite)).toBe(true);
      }
    });

    test('preserves input order', async () => {
      const { embeddings: batch } = await embedder.doEmbed({ texts: TEXTS, kind: 'document' });
      const singles = await Promise.all(
        TEXTS.map(async (t) => (await embedder.doEmbed({ texts: [t], kind: 'document' })).embeddings[0] ?? []),
      );
      batch.forEach((vector, i) => {
        const own = cosine(vector, singles[i] ?? []);
        expect(own).toBeGreaterThan(0.99);
        singles.forEach((other, j) => {
          if (j !== i) expect(cosine(vector, other)).toBeLessThan(own);
        });
      });
    });

    test('accepts query and document kinds', async () => {
      const [
        {
          embeddings: [q],
        },
        {
          embeddings: [d],
        },
      ] = await Promise.all([
        embedder.doEmbed({ texts: [TEXTS[0] as string], kind: 'query' }),
        embedder.doEmbed({ texts: [TEXTS[0] as string], kind: 'document' }),
      ]);
      expect(q).toHaveLength(embedder.dimensions);
      expect(d).toHaveLength(embedder.dimensions);
      // An embedder that declares the kind irrelevant must not change its output with it.
      if (!embedder.distinguishesQueries) expect(cosine(q ?? [], d ?? [])).toBeGreaterThan(0.999);
    });

    test('returns no vectors for empty input', async () => {
      expect((await embedder.doEmbed({ texts: [], kind: 'document' })).embeddings).toEqual([]);
    });

    test('rejects more texts than maxBatchSize in one call', async () => {
      const texts = Array.from({ length: embedder.maxBatchSize + 1 }, (_, i) => `text ${i}`);
      const error = await embedder.doEmbed({ texts, kind: 'document' }).catch((e: unknown) => e);
      expect(StrataError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
    });

    test('splits large inputs into batches through the embedding service', async () => {
      const texts = Array.from({ length: embedder.maxBatchSize * 2 + 1 }, (_, i) => `sentence number ${i} about topic ${i % 7}`);
      const service = createEmbeddingService({ embedder, retryInitialDelayMs: 10 });
      const progress: number[] = [];
      const vectors = await service.embedDocuments({ texts, onProgress: (p) => progress.push(p.done) });
      expect(vectors).toHaveLength(texts.length);
      expect(progress).toHaveLength(3);
      expect(progress.at(-1)).toBe(texts.length);
      for (const i of [0, embedder.maxBatchSize, texts.length - 1]) {
        const {
          embeddings: [single],
        } = await embedder.doEmbed({ texts: [texts[i] as string], kind: 'document' });
        expect(cosine(vectors?.[i] ?? [], single ?? [])).toBeGreaterThan(0.99);
      }
    });

    test('rejects an aborted signal', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await embedder.doEmbed({ texts: TEXTS, kind: 'document', abortSignal: controller.signal }).catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
    });
  });
}
