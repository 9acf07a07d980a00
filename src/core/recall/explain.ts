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

/** How to read a final score; shown once per explain. */
export const SCORE_SCALE =
  "final score 0..1 = match x factors. match: 1 - (1 - words)(1 - meaning); words = share of the query's words the memory contains x its BM25 relative to the best hit; " +
  'meaning = cosine similarity above what unrelated texts score. Factors (each <= 1) discount age, low importance, length, question form and a date away from the one asked about. ' +
  'Roughly: >= 0.7 strong, 0.4-0.7 partial, < 0.4 weak.';

const two = (n: number) => n.toFixed(2);

/** One line that spells out a candidate's final score. */
export function meaningOf(w: Working): string | undefined {
  const c = w.fusedCandidate;
  if (!c || !w.scored) return undefined;
  const parts: string[] = [];
  if (c.lexical)
    parts.push(
      `words ${two(c.lexical.calibrated)}${c.lexical.coverage !== undefined ? ` (${Math.round(c.lexical.coverage * 100)}% of query words, BM25 ${two(c.lexical.normalized)} of best)` : ''}`,
    );
  if (c.vector) parts.push(`meaning ${two(c.vector.scaled)} (cosine ${two(c.vector.score)})`);
  const base = w.rerank ? `rerank ${two(w.rerank.blended)}` : `match ${two(c.fused)}`;
  const factors = Object.entries(w.scored.factors)
    .filter(([, v]) => Math.abs(v - 1) >= 0.005)
    .map(([k, v]) => ` x ${k} ${two(v)}`)
    .join('');
  return `${two(w.scored.score)} = ${base}${parts.length ? ` [${parts.join('; ')}]` : ''}${factors}`;
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
    ...(w.scored ? { meaning: meaningOf(w) } : {}),
    ...(w.dropped ? { dropped: w.dropped } : {}),
  };
}
