/**
 * Fusion of the lexical (BM25) and vector (cosine) candidate lists.
 *
 * Each channel is first put on a scale that means the same thing for every query ("calibrated"):
 *   - lexical: BM25 divided by the query's best BM25, times the share of the query's content
 *     words the hit contains (`coverage`, terms.ts). Dividing by the best hit alone made the
 *     top lexical hit of every query a perfect 1 whatever it matched: the demo's "which database
 *     did we pick for billing?" ranked "Database migrations must be backwards compatible" first on
 *     the single word "database". With coverage that hit is a 1-in-3 match (0.33), and a hit that
 *     contains every content word (a name, an id) still scores 1;
 *   - vector: the cosine rescaled between `vectorFloor` (what unrelated texts already score) and
 *     `vectorCeiling` (a paraphrase), so an embedder that finds nothing close adds ~nothing.
 * Methods:
 *   - `calibrated` (default): 1 - (1 - lexical)(1 - vector), the chance that at least one
 *     channel is right if each were a probability. A confident channel wins on its own (a dense-only
 *     hit with a high similarity can reach the top; an exact match keeps 1), agreement adds up,
 *     and the result stays in [0, 1].
 *   - `weighted`: max(wl x lex + wv x vec, lex >= strongLexicalThreshold ? keep x lex : 0), weights
 *     normalised over the channels that ran (the previous default, kept for comparison).
 *   - `rrf`: sum of w / (k + rank) over the channels, divided by its maximum so it is in [0, 1].
 *   - `lexical-first`: lexical hits keep lexical order exactly (vector only breaks ties);
 *     vector-only hits are admitted only above `vectorOnlyMinSimilarity`, scored wv x vec.
 * Measured on LoCoMo-dev, memory path (`npm run bench -- locomo`, local USE-lite embedder), R@10 / MRR:
 *   lexical only 0.650 / 0.510     calibrated (default) 0.701 / 0.532     weighted 0.6/0.4 0.699 / 0.525
 *   without coverage 0.676 / 0.511     main's fusion (best hit = 1, floor) 0.648 / 0.481     rrf 0.619 / 0.425
 * Noisy-OR and the weighted sum rank alike; noisy-OR is kept because its score reads as a
 * probability and lets one confident channel reach 1. All functions here are pure.
 */
import type { FusionConfig } from './config.js';

export interface ChannelHit {
  id: string;
  /** BM25 for the lexical channel, cosine similarity for the vector channel. */
  score: number;
}

export interface FusedCandidate {
  id: string;
  /** `normalized`: BM25 / best BM25; `coverage`: share of query terms present; `calibrated`: what fusion used. */
  lexical?: { score: number; normalized: number; rank: number; coverage?: number; calibrated: number };
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
  /** Share of the query's content terms each lexical hit contains (terms.ts); absent = 1. */
  coverage?: ReadonlyMap<string, number>;
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
    const norm = normalized[i] ?? 0;
    const coverage = config.lexicalCoverage ? options.coverage?.get(hit.id) : undefined;
    get(hit.id).lexical = {
      score: hit.score,
      normalized: norm,
      rank: i + 1,
      ...(coverage !== undefined ? { coverage } : {}),
      calibrated: norm * (coverage ?? 1),
    };
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
  else if (config.method === 'calibrated') applyCalibrated(candidates, channels);
  else applyWeighted(candidates, channels, config);

  const kept: FusedCandidate[] = [];
  const excluded: FuseResult['excluded'] = [];
  for (const c of candidates) {
    if (c.lexical || c.fused > 0) kept.push(c);
    else if (config.method === 'lexical-first' && c.vector && c.vector.score < config.vectorOnlyMinSimilarity) {
      excluded.push({
        candidate: c,
        reason: `vector-only hit with cosine ${round(c.vector.score)} < vectorOnlyMinSimilarity ${config.vectorOnlyMinSimilarity}`,
      });
    } else {
      excluded.push({
        candidate: c,
        reason: `vector-only hit with cosine ${round(c.vector?.score ?? 0)} <= vectorFloor ${config.vectorFloor}`,
      });
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

/** Noisy-OR of the calibrated channel scores (a channel that did not run contributes 0). */
function applyCalibrated(candidates: FusedCandidate[], channels: { lexical: boolean; vector: boolean }): void {
  for (const c of candidates) {
    const lex = channels.lexical ? (c.lexical?.calibrated ?? 0) : 0;
    const vec = channels.vector ? (c.vector?.scaled ?? 0) : 0;
    c.fused = 1 - (1 - lex) * (1 - vec);
  }
}

function applyWeighted(candidates: FusedCandidate[], channels: { lexical: boolean; vector: boolean }, config: FusionConfig): void {
  const { wl, wv } = weightsFor(channels, config);
  for (const c of candidates) {
    const lex = c.lexical?.calibrated ?? 0;
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
  // Tie-break weight far below any real score gap (normalised scores are in [0, 1]; doubles resolve about
  // 1e-16 there): the vector channel orders exact ties only, never two lexical hits 1e-11 apart.
  const epsilon = 1e-12;
  for (const c of candidates) {
    if (c.lexical) {
      c.fused = Math.min(1, c.lexical.calibrated + epsilon * (c.vector?.scaled ?? 0));
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
    (b.lexical?.calibrated ?? 0) - (a.lexical?.calibrated ?? 0) ||
    (a.lexical?.rank ?? Infinity) - (b.lexical?.rank ?? Infinity) ||
    (b.vector?.score ?? -2) - (a.vector?.score ?? -2) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
