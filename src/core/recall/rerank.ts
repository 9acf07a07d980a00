/**
 * Optional cross-encoder stage over the top of the fused list. A reranker is a remote call that
 * can be slow or down; recall must still answer, so any failure or timeout keeps the fused order
 * and says so. The blend keeps part of the fused score, and strong lexical hits are protected,
 * because cross-encoders misjudge short memories (names, ids) that BM25 matches exactly.
 */
import { withDeadline } from '../../util/deadline.js';
import { StrataError } from '../../errors/index.js';
import type { RerankerV1 } from '../../spec/index.js';
import type { RerankConfig } from './config.js';

export interface RerankCandidate {
  id: string;
  text: string;
  fused: number;
  /** Calibrated lexical score (fusion.ts), when the candidate was a lexical hit. */
  lexicalNormalized?: number;
}

export interface RerankOutcome {
  applied: boolean;
  /** Why reranking was skipped or fell back; absent when it succeeded. */
  note?: string;
  /** Number of candidates sent to the provider (0 when skipped before the call). */
  window: number;
  /** For window candidates: normalised provider score (absent if not returned) and the blended score. */
  scores: Map<string, { rerank?: number; score: number }>;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Provider scores are probabilities for some APIs and logits for others: map both to [0, 1]. */
export function normalizeRerankScores(scores: readonly number[]): number[] {
  const inUnit = scores.every((s) => s >= 0 && s <= 1);
  return inUnit ? [...scores] : scores.map(sigmoid);
}

export function blendRerankScore(options: {
  fused: number;
  rerank: number | undefined;
  lexicalNormalized?: number;
  config: RerankConfig;
}): number {
  const { fused, rerank, config } = options;
  const blended = rerank === undefined ? fused * config.unreturnedPenalty : config.weight * rerank + (1 - config.weight) * fused;
  const protectedFloor = (options.lexicalNormalized ?? 0) >= config.protectLexicalThreshold ? fused * config.protectKeep : 0;
  return Math.max(blended, protectedFloor);
}

class RerankTimeoutError extends StrataError {
  constructor(ms: number) {
    super({ code: 'TIMEOUT', message: `Reranker did not answer within ${ms} ms.`, isRetryable: true });
    this.name = 'RerankTimeoutError';
  }
}

export async function rerankCandidates(options: {
  reranker: RerankerV1;
  query: string;
  /** Fused order, best first; only the first `window` are sent. */
  candidates: readonly RerankCandidate[];
  window: number;
  config: RerankConfig;
  abortSignal?: AbortSignal;
}): Promise<RerankOutcome> {
  const { reranker, config, abortSignal } = options;
  const size = Math.min(options.window, options.candidates.length, Math.max(1, reranker.maxDocuments));
  const windowed = options.candidates.slice(0, size);
  if (windowed.length < 2) return { applied: false, note: 'fewer than 2 candidates: nothing to rerank', window: 0, scores: new Map() };

  let results: Array<{ index: number; score: number }>;
  try {
    const response = await withDeadline(
      { timeoutMs: config.timeoutMs, abortSignal, onTimeout: () => new RerankTimeoutError(config.timeoutMs) },
      (signal) => reranker.doRerank({ query: options.query, documents: windowed.map((c) => c.text), abortSignal: signal }),
    );
    results = Array.isArray(response?.results) ? response.results : [];
  } catch (error) {
    // The caller gave up: propagate. Anything else (HTTP error, timeout, bad payload) falls back.
    if (abortSignal?.aborted) throw error;
    const reason =
      error instanceof RerankTimeoutError
        ? `timed out after ${config.timeoutMs} ms`
        : `failed: ${(error as Error)?.message ?? String(error)}`;
    return fallback(windowed, `reranker ${reranker.id} ${reason}; kept fused order`);
  }

  const valid = results.filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < windowed.length && Number.isFinite(r.score));
  if (valid.length === 0) return fallback(windowed, `reranker ${reranker.id} returned no usable scores; kept fused order`);
  const normalized = normalizeRerankScores(valid.map((r) => r.score));
  const byIndex = new Map<number, number>();
  valid.forEach((r, i) => {
    if (!byIndex.has(r.index)) byIndex.set(r.index, normalized[i] ?? 0);
  });
  const scores = new Map<string, { rerank?: number; score: number }>();
  windowed.forEach((c, index) => {
    const rerank = byIndex.get(index);
    const score = blendRerankScore({ fused: c.fused, rerank, lexicalNormalized: c.lexicalNormalized, config });
    scores.set(c.id, rerank === undefined ? { score } : { rerank, score });
  });
  return { applied: true, window: windowed.length, scores };
}

function fallback(windowed: readonly RerankCandidate[], note: string): RerankOutcome {
  return { applied: false, note, window: windowed.length, scores: new Map(windowed.map((c) => [c.id, { score: c.fused }])) };
}
