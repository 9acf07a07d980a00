/**
 * Post-fusion adjustments from memory metadata. Each factor is multiplicative and close to 1 so
 * relevance (fusion/rerank) stays the main signal: metadata only separates similar candidates.
 * Defaults (DEFAULT_RECALL_CONFIG.scoring): a brand-new memory gets x1.10, halving every 14 days;
 * importance 0..1 maps to x0.85..x1.15 (0.5 is neutral); a memory recalled often and recently gets
 * up to x1.05; texts over 500 chars are damped (2,000 chars: x0.5).
 */
import type { MemoryRecord } from '../../spec/index.js';
import type { ScoringConfig } from './config.js';

const DAY_MS = 86_400_000;

export interface ScoringFactors {
  recency: number;
  importance: number;
  access: number;
  length: number;
}

export interface ScoredValue {
  score: number;
  factors: ScoringFactors;
}

type ScoredRecord = Pick<MemoryRecord, 'text' | 'importance' | 'validFrom' | 'createdAt' | 'accessCount' | 'lastAccessedAt'>;

function ageDays(iso: string | null, now: number): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? Math.max(0, (now - t) / DAY_MS) : undefined;
}

/** x(1 + w x 0.5^(age/halfLife)); age from `validFrom` (when the fact became true), else createdAt. */
export function recencyFactor(options: { record: ScoredRecord; now: number; config: ScoringConfig }): number {
  const { record, now, config } = options;
  const age = ageDays(record.validFrom, now) ?? ageDays(record.createdAt, now);
  if (age === undefined || config.recencyWeight === 0) return 1;
  return 1 + config.recencyWeight * Math.pow(0.5, age / config.recencyHalfLifeDays);
}

export function importanceFactor(options: { importance: number; config: ScoringConfig }): number {
  const importance = Number.isFinite(options.importance) ? Math.min(1, Math.max(0, options.importance)) : 0.5;
  return 1 + options.config.importanceWeight * (importance - 0.5);
}

/** Reinforcement: log-saturating in accessCount, fading with time since the last access. */
export function accessFactor(options: { record: ScoredRecord; now: number; config: ScoringConfig }): number {
  const { record, now, config } = options;
  const count = Math.max(0, record.accessCount || 0);
  if (count === 0 || config.accessWeight === 0) return 1;
  const saturation = Math.min(1, Math.log1p(count) / Math.log1p(config.accessSaturation));
  const since = ageDays(record.lastAccessedAt, now);
  const freshness = since === undefined ? 0.5 : Math.pow(0.5, since / config.accessHalfLifeDays);
  return 1 + config.accessWeight * saturation * freshness;
}

/** Long texts match many queries weakly; damp them past the anchor (log scale, never below ~0.3 in practice). */
export function lengthFactor(options: { text: string; config: ScoringConfig }): number {
  const { text, config } = options;
  const length = text.length;
  if (length <= config.lengthAnchorChars || config.lengthPenalty === 0) return 1;
  return 1 / (1 + config.lengthPenalty * Math.log2(length / config.lengthAnchorChars));
}

export function applyScoring(options: { record: ScoredRecord; score: number; now: number; config: ScoringConfig }): ScoredValue {
  const { record, now, config } = options;
  const factors: ScoringFactors = {
    recency: recencyFactor({ record, now, config }),
    importance: importanceFactor({ importance: record.importance, config }),
    access: accessFactor({ record, now, config }),
    length: lengthFactor({ text: record.text, config }),
  };
  const score = options.score * factors.recency * factors.importance * factors.access * factors.length;
  return { score, factors };
}
