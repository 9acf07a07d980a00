/** Per-candidate working state of one recall, and its projection into results and explain output. */
import type { MemoryRecord } from '../../spec/index.js';
import type { FusedCandidate } from './fusion.js';
import type { ScoredValue } from './scoring.js';
import type { ExplainCandidate, RecallDropStage, RecallHit } from './types.js';

export interface Working {
  record: MemoryRecord;
  fusedCandidate?: FusedCandidate;
  fusedRank?: number;
  rerank?: { score?: number; blended: number; rank: number };
  scored?: ScoredValue;
  demoted?: ExplainCandidate['demoted'];
  dropped?: { stage: RecallDropStage; reason: string };
  vector?: number[] | null;
}

export function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

export function toHit(w: Working): RecallHit {
  const c = w.fusedCandidate;
  const final = w.scored?.score ?? 0;
  return {
    record: w.record,
    score: final,
    scores: {
      ...(c?.lexical ? { lexical: c.lexical.normalized } : {}),
      ...(c?.vector ? { vector: c.vector.score } : {}),
      fused: c?.fused ?? 0,
      ...(w.rerank?.score !== undefined ? { rerank: w.rerank.score } : {}),
      final,
    },
  };
}

export function toExplain(w: Working, finalRank?: number): ExplainCandidate {
  const c = w.fusedCandidate;
  return {
    id: w.record.id,
    preview: w.record.text.slice(0, 120),
    scope: w.record.scope,
    category: w.record.category,
    ...(c?.lexical ? { lexical: { ...c.lexical } } : {}),
    ...(c?.vector ? { vector: { ...c.vector } } : {}),
    ...(c && w.fusedRank !== undefined ? { fused: { score: c.fused, rank: w.fusedRank } } : {}),
    ...(w.rerank ? { rerank: w.rerank } : {}),
    ...(w.scored ? { scoring: { factors: w.scored.factors, score: w.scored.score } } : {}),
    ...(w.demoted ? { demoted: w.demoted } : {}),
    ...(finalRank !== undefined ? { final: { score: w.scored?.score ?? 0, rank: finalRank } } : {}),
    ...(w.dropped ? { dropped: w.dropped } : {}),
  };
}
