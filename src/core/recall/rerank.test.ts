import { describe, expect, it } from 'vitest';
import type { RerankerV1 } from '../../spec/index.js';
import { DEFAULT_RECALL_CONFIG, type RerankConfig } from './config.js';
import { blendRerankScore, normalizeRerankScores, rerankCandidates, type RerankCandidate } from './rerank.js';

const config: RerankConfig = { ...DEFAULT_RECALL_CONFIG.rerank, timeoutMs: 50 };

function reranker(doRerank: RerankerV1['doRerank'], maxDocuments = 100): RerankerV1 {
  return { specificationVersion: 'v1', id: 'test-reranker', maxDocuments, doRerank };
}

/** Scores each document by whether it contains the query's first word. */
const keywordReranker = reranker(async ({ query, documents }) => ({
  results: documents.map((d, index) => ({ index, score: d.includes(query.split(' ')[0]!) ? 0.95 : 0.05 })),
}));

const candidates: RerankCandidate[] = [
  { id: 'a', text: 'nothing relevant', fused: 0.6 },
  { id: 'b', text: 'postgres is the database', fused: 0.5 },
  { id: 'c', text: 'more noise', fused: 0.4 },
];

describe('rerank helpers', () => {
  it('keeps unit scores and squashes logits', () => {
    expect(normalizeRerankScores([0.2, 0.9])).toEqual([0.2, 0.9]);
    const squashed = normalizeRerankScores([-3, 0, 4]);
    expect(squashed[1]).toBe(0.5);
    expect(squashed[0]).toBeLessThan(0.1);
    expect(squashed[2]).toBeGreaterThan(0.9);
  });

  it('blends, penalises unreturned candidates and protects strong lexical hits', () => {
    expect(blendRerankScore({ fused: 0.5, rerank: 1, config })).toBeCloseTo(0.6 + 0.2);
    expect(blendRerankScore({ fused: 0.5, rerank: undefined, config })).toBeCloseTo(0.4);
    expect(blendRerankScore({ fused: 0.9, rerank: 0, lexicalNormalized: 1, config })).toBeCloseTo(0.855);
    expect(blendRerankScore({ fused: 0.9, rerank: 0, lexicalNormalized: 0.5, config })).toBeCloseTo(0.36);
  });
});

describe('rerankCandidates', () => {
  it('reorders the window by the blended score', async () => {
    const out = await rerankCandidates({ reranker: keywordReranker, query: 'postgres database', candidates, window: 10, config });
    expect(out.applied).toBe(true);
    expect(out.window).toBe(3);
    const order = [...out.scores.entries()].sort((x, y) => y[1].score - x[1].score).map(([id]) => id);
    expect(order[0]).toBe('b');
    expect(out.scores.get('b')).toEqual({ rerank: 0.95, score: expect.closeTo(0.6 * 0.95 + 0.4 * 0.5) });
  });

  it('sends at most min(window, maxDocuments) documents', async () => {
    let sent = 0;
    const small = reranker(async ({ documents }) => {
      sent = documents.length;
      return { results: documents.map((_, index) => ({ index, score: 0.5 })) };
    }, 2);
    const out = await rerankCandidates({ reranker: small, query: 'q', candidates, window: 10, config });
    expect(sent).toBe(2);
    expect(out.scores.has('c')).toBe(false);
  });

  it('falls back to fused order when the provider hangs past the timeout', async () => {
    const hanging = reranker(() => new Promise(() => undefined));
    const out = await rerankCandidates({ reranker: hanging, query: 'q', candidates, window: 10, config });
    expect(out.applied).toBe(false);
    expect(out.note).toMatch(/timed out after 50 ms; kept fused order/);
    expect([...out.scores.values()].map((s) => s.score)).toEqual([0.6, 0.5, 0.4]);
  });

  it('aborts a provider that honours the signal on timeout', async () => {
    let aborted = false;
    const polite = reranker(
      ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => {
            aborted = true;
            reject(abortSignal.reason);
          });
        }),
    );
    const out = await rerankCandidates({ reranker: polite, query: 'q', candidates, window: 10, config });
    expect(aborted).toBe(true);
    expect(out.applied).toBe(false);
  });

  it('falls back on provider errors and on unusable payloads', async () => {
    const failing = reranker(async () => {
      throw new Error('HTTP 503');
    });
    expect((await rerankCandidates({ reranker: failing, query: 'q', candidates, window: 10, config })).note).toMatch(/failed: HTTP 503/);
    const junk = reranker(async () => ({
      results: [
        { index: 99, score: 1 },
        { index: 0, score: Number.NaN },
      ],
    }));
    expect((await rerankCandidates({ reranker: junk, query: 'q', candidates, window: 10, config })).note).toMatch(/no usable scores/);
  });

  it('propagates a caller abort instead of falling back', async () => {
    const controller = new AbortController();
    const slow = reranker(
      ({ abortSignal }) => new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason))),
    );
    const pending = rerankCandidates({
      reranker: slow,
      query: 'q',
      candidates,
      window: 10,
      config: { ...config, timeoutMs: 10_000 },
      abortSignal: controller.signal,
    });
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toThrow('user cancelled');
  });

  it('skips a window of fewer than two candidates', async () => {
    const out = await rerankCandidates({ reranker: keywordReranker, query: 'q', candidates: candidates.slice(0, 1), window: 10, config });
    expect(out).toMatchObject({ applied: false, window: 0 });
  });
});
