import { beforeAll, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/errors/index.js';
import { isAbortError } from '../../src/provider-utils/index.js';
import type { RerankerV1 } from '../../src/spec/index.js';
import type { ContractSkip } from './embedder-contract.js';

/** Behaviour every RerankerV1 must show; each backend's test file calls `runRerankerContract`. */
export const RERANKER_CONTRACT_TESTS = [
  'declares the v1 spec',
  'scores documents by their index',
  'ranks the relevant document first',
  'honours topN',
  'returns nothing for no documents',
  'rejects more documents than maxDocuments',
  'rejects an aborted signal',
] as const;
export type RerankerContractTest = (typeof RERANKER_CONTRACT_TESTS)[number];

export interface RerankerContractOptions {
  name: string;
  create: () => RerankerV1 | Promise<RerankerV1>;
  skip?: Array<ContractSkip<RerankerContractTest>>;
}

const QUERY = 'how do I brew coffee';
const DOCUMENTS = [
  'The train leaves at noon from platform four',
  'To brew coffee, pour hot water over ground beans',
  'Stock markets fell sharply on Monday',
];

export function runRerankerContract(options: RerankerContractOptions): void {
  const skipped = new Map<string, string>();
  for (const s of options.skip ?? []) {
    if (!s.reason.trim()) throw new Error(`runRerankerContract(${options.name}): every skip needs a reason`);
    for (const t of s.tests) skipped.set(t, s.reason);
  }
  const test = (name: RerankerContractTest, fn: () => Promise<void>) => {
    const reason = skipped.get(name);
    if (reason) it.skip(`${name} (skipped: ${reason})`, fn);
    else it(name, fn);
  };

  describe(`reranker contract: ${options.name}`, () => {
    let reranker: RerankerV1;
    beforeAll(async () => {
      reranker = await options.create();
    });

    test('declares the v1 spec', async () => {
      expect(reranker.specificationVersion).toBe('v1');
      expect(reranker.id).toMatch(/\S/);
      expect(Number.isInteger(reranker.maxDocuments) && reranker.maxDocuments >= 1).toBe(true);
    });

    test('scores documents by their index', async () => {
      const { results } = await reranker.doRerank({ query: QUERY, documents: DOCUMENTS });
      expect(results.length).toBeGreaterThan(0);
      expect(new Set(results.map((r) => r.index)).size).toBe(results.length);
      for (const r of results) {
        expect(r.index).toBeGreaterThanOrEqual(0);
        expect(r.index).toBeLessThan(DOCUMENTS.length);
        expect(Number.isFinite(r.score)).toBe(true);
      }
    });

    test('ranks the relevant document first', async () => {
      const { results } = await reranker.doRerank({ query: QUERY, documents: DOCUMENTS });
      const best = results.reduce((a, b) => (b.score > a.score ? b : a));
      expect(best.index).toBe(1);
    });

    test('honours topN', async () => {
      const { results } = await reranker.doRerank({ query: QUERY, documents: DOCUMENTS, topN: 1 });
      expect(results).toHaveLength(1);
      expect(results[0]?.index).toBe(1);
    });

    test('returns nothing for no documents', async () => {
      expect((await reranker.doRerank({ query: QUERY, documents: [] })).results).toEqual([]);
    });

    test('rejects more documents than maxDocuments', async () => {
      const documents = Array.from({ length: reranker.maxDocuments + 1 }, (_, i) => `doc ${i}`);
      const error = await reranker.doRerank({ query: QUERY, documents }).catch((e: unknown) => e);
      expect(StrataError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
    });

    test('rejects an aborted signal', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await reranker
        .doRerank({ query: QUERY, documents: DOCUMENTS, abortSignal: controller.signal })
        .catch((e: unknown) => e);
      expect(isAbortError(error)).toBe(true);
    });
  });
}
