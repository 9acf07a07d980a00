/** Public types of the recall pipeline: one options object in, results plus an optional explain out. */
import type { MemoryCategory, MemoryFilter, MemoryRecord } from '../../spec/index.js';
import type { FusionConfig } from './config.js';
import type { ScoringFactors } from './scoring.js';

export interface RecallOptions {
  /** Raw user text; injected blocks and envelopes are stripped before searching (see query-cleanup.ts). */
  query: string;
  /** Required, non-empty, validated with assertScopeSet: recall never reads "everything". */
  scopes: string[];
  /** Results to return; default `config.defaultLimit` (5), at most `config.maxLimit`. */
  limit?: number;
  /** Include superseded/expired memories. Default false. */
  includeHistory?: boolean;
  categories?: MemoryCategory[];
  /** Overrides `config.minScore` for this call. */
  minScore?: number;
  /** Attach a per-candidate, per-stage explanation. */
  explain?: boolean;
  /** `false` skips the reranker for this call, `true` uses it even if `rerank.enabled` is false; default: rerank when one is configured and enabled. */
  rerank?: boolean;
  abortSignal?: AbortSignal;
  /** Clock used by recency/access scoring; default the current time. */
  now?: Date;
}

export interface RecallScores {
  /** Calibrated lexical score (0..1): BM25 relative to the best hit x share of query words present. */
  lexical?: number;
  /** Cosine similarity with the query, when known. */
  vector?: number;
  fused: number;
  /** Provider relevance normalised to 0..1, when the reranker scored this memory. */
  rerank?: number;
  /** In [0, 1]: relevance after rerank blend and metadata factors; results are ordered by it (then diversity). */
  final: number;
}

export interface RecallHit {
  record: MemoryRecord;
  /** Same as `scores.final`. */
  score: number;
  scores: RecallScores;
}

export interface RecallResult {
  /** The cleaned query actually searched. */
  query: string;
  results: RecallHit[];
  explain?: RecallExplain;
  /** Milliseconds per stage (`total`, `cleanup`, `lexical`, `embed`, `vector`, `vectors`, `fusion`, `rerank`, `scoring`, `diversity`). */
  timings: Record<string, number>;
}

export type RecallDropStage = 'filter' | 'fusion' | 'min-score' | 'limit';

export interface ChannelReport {
  used: boolean;
  hits: number;
  /** Why the channel did not run or failed. */
  note?: string;
}

export interface ExplainCandidate {
  id: string;
  /** First 120 characters of the memory text. */
  preview: string;
  scope: string;
  category: MemoryCategory;
  lexical?: { score: number; normalized: number; rank: number; coverage?: number; calibrated: number };
  /** `rank` absent: cosine computed from the stored vector, not returned by the vector search. */
  vector?: { score: number; scaled: number; rank?: number };
  fused?: { score: number; rank: number };
  rerank?: { score?: number; blended: number; rank: number };
  scoring?: { factors: ScoringFactors; score: number };
  demoted?: { similarTo: string; similarity: number; by: 'vector' | 'tokens' };
  /** Rank among returned results (1-based). */
  final?: { score: number; rank: number };
  /** One line: what the final score is made of, e.g. "0.71 = match 0.82 (words 2/3 …) x importance 0.87". */
  meaning?: string;
  dropped?: { stage: RecallDropStage; reason: string };
}

export interface RecallExplain {
  query: { original: string; cleaned: string; removed: string[]; truncated: boolean; time?: { text: string; from: string; to: string } };
  /** How to read a final score. */
  scale: string;
  filter: MemoryFilter;
  limit: number;
  candidatePool: number;
  minScore: number;
  channels: { lexical: ChannelReport; vector: ChannelReport };
  fusion: FusionConfig;
  rerank: { applied: boolean; window: number; reranker?: string; note?: string };
  /** Human-readable notes: degraded channels, fallbacks, skipped stages. */
  notes: string[];
  /** Returned results first (in order), then every dropped candidate. */
  candidates: ExplainCandidate[];
  dropped: Array<{ id: string; stage: RecallDropStage; reason: string }>;
}
