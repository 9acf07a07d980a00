/**
 * Fusion of the lexical (BM25) and vector (cosine) candidate lists.
 *
 * The property that matters: with a weak dense channel (the local embedder reaches R@10 ~0.38
 * on LoCoMo against BM25's 0.60, and plain RRF of the two scores 0.572, below BM25 alone),
 * hybrid must rank at least as well as lexical alone. Rank-only fusion (RRF) gives a noisy
 * channel the same say as a good one; score fusion lets us keep each channel on a scale that
 * means something:
 *   - BM25 is normalised per query (divided by the best hit), since its raw scale depends on
 *     corpus and query length;
 *   - cosine stays on its own absolute scale, rescaled between `vectorFloor` (unrelated texts
 *     already score 0.1-0.3) and `vectorCeiling`, so a dense channel that finds nothing close
 *     adds ~nothing instead of promoting its "least bad" hits;
 *   - strong lexical hits keep (almost) their own score, so the dense channel can add
 *     candidates and reorder weak ones but cannot push a clear keyword match down.
 * Methods:
 *   - `weighted` (default): max(wl x lex + wv x vec, lex >= strongLexicalThreshold ? keep x lex : 0),
 *     weights normalised to sum 1 over the channels that ran.
 *   - `rrf`: sum of w / (k + rank) over the channels, divided by its maximum so it is in [0, 1].
 *   - `lexical-first`: lexical hits keep lexical order exactly (vector only breaks ties);
 *     vector-only hits are admitted only above `vectorOnlyMinSimilarity`, scored wv x vec.
 *     By construction never reorders lexical results: the safest choice for a weak embedder.
 * Measured on LoCoMo-dev evidence retrieval (760 questions, in-memory BM25 without stemming,
 * local USE-lite embedder, recency/importance off, minScore 0; R@10 / R@20 / MRR):
 *   lexical only 0.575 / 0.642 / 0.424            dense only 0.402 / 0.529 / 0.212
 *   weighted 0.7/0.3 0.602 / 0.667 / 0.430       weighted 0.6/0.4 0.611 / 0.675 / 0.432
 *   weighted 0.5/0.5 0.614 / 0.684 / 0.434       weighted 0.4/0.6 0.614 / 0.699 / 0.436
 *   rrf 1:1 (k 60) 0.562 / 0.651 / 0.351         rrf 0.7/0.3 (k 60) 0.580 / 0.657 / 0.385
 *   lexical-first 0.575 / 0.644 / 0.424
 * Same task on the real LanceDB store (its FTS, same embeddings), R@10 / R@20 / MRR:
 *   lexical only 0.611 / 0.679 / 0.463   weighted 0.6/0.4 0.630 / 0.702 / 0.467
 *   weighted 0.7/0.3 0.634 / 0.695 / 0.467   weighted 0.5/0.5 0.629 / 0.706 / 0.467
 *   rrf 1:1 0.560 / 0.668 / 0.353   lexical-first 0.612 / 0.680 / 0.463
 * Without the strong-lexical floor, weighted gains ~+0.005-0.015 R@5 / MRR (the floor pins the
 * lexical top hit); it is kept as a guard for exact matches (names, ids) that embedders miss.
 * All functions here are pure.
 */
import type { FusionConfig } from './config.js';

export interface ChannelHit {
  id: string;
  /** BM25 for the lexical channel, cosine similarity for the vector channel. */
  score: number;
}

export interface FusedCandidate {
  id: string;
  lexical?: { score: number; normalized: number; rank: number };
  /** `rank` is absent when the cosine was computed for a candidate the vector search did not return. */
  vector?: { score: number; scaled: number; rank?: number };
  fused: number;
}

export interface FuseOptions {
  /** Hits in the channel's rank order; `null` when the channel did not run. */
  lexical: readonly ChannelHit[] | null;
  vector: readonly ChannelHit[] | null;
  /** Cosines computed for candidates missing from the vector list (see `completeVectorScores`). */
  extraVectorScores?: ReadonlyMap<string, number>;
  config: FusionConfig;
}

/** Cosine rescaled to [0, 1] between floor and ceiling. */
export function scaleCosine(options: { cosine: number; floor: number; ceiling: number }): number {
  const { cosine, floor, ceiling } = options;
  if (!Number.isFinite(cosine)) return 0;
  return Math.min(1, Math.max(0, (cosine - floor) / (ceiling - floor)));
}

/** Divides by the best score of the list; non-positive or non-finite scores become 0. */
export function normalizeByMax(scores: readonly number[]): number[] {
  const max = Math.max(0, ...scores.filter(Number.isFinite));
  return scores.map((s) => (max > 0 && Number.isFinite(s) && s > 0 ? s / max : 0));
}

export interface FuseResult {
  /** Sorted best first. */
  kept: FusedCandidate[];
  /** Candidates fusion rejected (vector-only hits with no usable similarity), with the reason. */
  excluded: Array<{ candidate: FusedCandidate; reason: string }>;
}

export function fuse(options: FuseOptions): FuseResult {
  const { config } = options;
  const byId = new Map<string, FusedCandidate>();
  const get = (id: string): FusedCandidate => {
    let c = byId.get(id);
    if (!c) byId.set(id, (c = { id, fused: 0 }));
    return c;
  };

  const lexical = dedupeHits(options.lexical ?? []);
  const normalized = normalizeByMax(lexical.map((h) => h.score));
  lexical.forEach((hit, i) => {
    get(hit.id).lexical = { score: hit.score, normalized: normalized[i] ?? 0, rank: i + 1 };
  });
  const scale = (cosine: number) => scaleCosine({ cosine, floor: config.vectorFloor, ceiling: config.vectorCeiling });
  dedupeHits(options.vector ?? []).forEach((hit, i) => {
    get(hit.id).vector = { score: hit.score, scaled: scale(hit.score), rank: i + 1 };
  });
  for (const [id, cosine] of options.extraVectorScores ?? []) {
    const c = byId.get(id);
    if (c && !c.vector) c.vector = { score: cosine, scaled: scale(cosine) };
  }

  const channels = { lexical: options.lexical !== null, vector: options.vector !== null };
  const candidates = [...byId.values()];
  if (config.method === 'rrf') applyRrf(candidates, channels, config);
  else if (config.method === 'lexical-first') applyLexicalFirst(candidates, config);
  else applyWeighted(candidates, channels, config);

  const kept: FusedCandidate[] = [];
  const excluded: FuseResult['excluded'] = [];
  for (const c of candidates) {
    if (c.lexical || c.fused > 0) kept.push(c);
    else if (config.method === 'lexical-first' && c.vector && c.vector.score < config.vectorOnlyMinSimilarity) {
      excluded.push({ candidate: c, reason: `vector-only hit with cosine ${round(c.vector.score)} < vectorOnlyMinSimilarity ${config.vectorOnlyMinSimilarity}` });
    } else {
      excluded.push({ candidate: c, reason: `vector-only hit with cosine ${round(c.vector?.score ?? 0)} <= vectorFloor ${config.vectorFloor}` });
    }
  }
  return { kept: kept.sort(compareFused), excluded };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Keeps the first (best) occurrence of an id; a backend may return duplicates across fragments. */
function dedupeHits(hits: readonly ChannelHit[]): ChannelHit[] {
  const seen = new Set<string>();
  return hits.filter((h) => (seen.has(h.id) ? false : (seen.add(h.id), true)));
}

function weightsFor(channels: { lexical: boolean; vector: boolean }, config: FusionConfig): { wl: number; wv: number } {
  const wl = channels.lexical ? config.lexicalWeight : 0;
  const wv = channels.vector ? config.vectorWeight : 0;
  const sum = wl + wv;
  // A channel that did not run must not cap the other's scores (minScore stays meaningful).
  return sum > 0 ? { wl: wl / sum, wv: wv / sum } : { wl: channels.lexical ? 1 : 0, wv: channels.vector && !channels.lexical ? 1 : 0 };
}

function applyWeighted(candidates: FusedCandidate[], channels: { lexical: boolean; vector: boolean }, config: FusionConfig): void {
  const { wl, wv } = weightsFor(channels, config);
  for (const c of candidates) {
    const lex = c.lexical?.normalized ?? 0;
    const vec = c.vector?.scaled ?? 0;
    const blended = wl * lex + wv * vec;
    // wl > 0: a config that turns lexical off (dense-only) must not get lexical floors either.
    const floor = wl > 0 && lex >= config.strongLexicalThreshold ? config.strongLexicalKeep * lex : 0;
    c.fused = Math.max(blended, floor);
  }
}

function applyRrf(candidates: FusedCandidate[], channels: { lexical: boolean; vector: boolean }, config: FusionConfig): void {
  const { wl, wv } = weightsFor(channels, config);
  const k = config.rrfK;
  const best = (wl + wv) / (k + 1);
  for (const c of candidates) {
    const lex = c.lexical ? wl / (k + c.lexical.rank) : 0;
    const vec = c.vector?.rank !== undefined ? wv / (k + c.vector.rank) : 0;
    c.fused = best > 0 ? (lex + vec) / best : 0;
  }
}

function applyLexicalFirst(candidates: FusedCandidate[], config: FusionConfig): void {
  // Tie-break weight small enough that it can never swap two lexical hits whose normalised scores differ by >= 1e-3.
  const epsilon = 1e-4;
  for (const c of candidates) {
    if (c.lexical) {
      c.fused = Math.min(1, c.lexical.normalized + epsilon * (c.vector?.scaled ?? 0));
    } else if (c.vector && c.vector.score >= config.vectorOnlyMinSimilarity) {
      c.fused = Math.min(1, config.vectorWeight) * c.vector.scaled;
    } else {
      c.fused = 0;
    }
  }
}

/** Score descending, then lexical score and rank (the store's own tie order), then vector, then id. */
export function compareFused(a: FusedCandidate, b: FusedCandidate): number {
  return (
    b.fused - a.fused ||
    (b.lexical?.normalized ?? 0) - (a.lexical?.normalized ?? 0) ||
    (a.lexical?.rank ?? Infinity) - (b.lexical?.rank ?? Infinity) ||
    (b.vector?.score ?? -2) - (a.vector?.score ?? -2) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
