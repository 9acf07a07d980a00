/**
 * Post-fusion adjustments from memory metadata. Every factor is in (0, 1], 1 meaning "nothing
 * against it", so the final score (fused relevance x factors) stays in [0, 1] and reads as
 * relevance discounted for age, low importance, length, question form or the wrong date.
 * Defaults (DEFAULT_RECALL_CONFIG.scoring): a memory from today keeps x1, an old one x0.91
 * (0.1 weight, halving every 14 days); importance 1 keeps x1, 0.5 x0.87, 0 x0.74; texts over
 * 500 chars are damped (2,000 chars: x0.5); a text that is a question x0.8 (it asks, it does not
 * tell: in LoCoMo the first hit of 35% of questions was another speaker's question); a query
 * naming a time damps memories dated away from it by up to 0.3. Access counts are off by default
 * (weight 0): they changed the scores of two identical queries in a row.
 */
import type { MemoryRecord } from '../../spec/index.js';
import type { ScoringConfig } from './config.js';
import { dateMatch, type QueryTimeRange } from './dates.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface ScoringFactors {
  recency: number;
  importance: number;
  access: number;
  length: number;
  /** Question form (`questionFactor`) or 1. */
  form: number;
  /** Fit with the time the query names, or 1 when it names none. */
  date: number;
}

export interface ScoredValue {
  score: number;
  factors: ScoringFactors;
}

type ScoredRecord = Pick<MemoryRecord, 'text' | 'importance' | 'validFrom' | 'createdAt' | 'accessCount' | 'lastAccessedAt'>;

/**
 * Age in days, measured from the start of the current hour: two identical queries in a row get
 * identical scores instead of ones that differ in the ninth decimal.
 */
function ageDays(iso: string | null, now: number): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? Math.max(0, (Math.floor(now / HOUR_MS) * HOUR_MS - t) / DAY_MS) : undefined;
}

/** (1 + w x 0.5^(age/halfLife)) / (1 + w); age from `validFrom` (when the fact became true), else createdAt. */
export function recencyFactor(options: { record: ScoredRecord; now: number; config: ScoringConfig }): number {
  const { record, now, config } = options;
  const age = ageDays(record.validFrom, now) ?? ageDays(record.createdAt, now);
  if (age === undefined || config.recencyWeight === 0) return 1;
  return (1 + config.recencyWeight * Math.pow(0.5, age / config.recencyHalfLifeDays)) / (1 + config.recencyWeight);
}

export function importanceFactor(options: { importance: number; config: ScoringConfig }): number {
  const importance = Number.isFinite(options.importance) ? Math.min(1, Math.max(0, options.importance)) : 0.5;
  const w = options.config.importanceWeight;
  return (1 + w * (importance - 0.5)) / (1 + w / 2);
}

/** Reinforcement: log-saturating in accessCount, fading with time since the last access. */
export function accessFactor(options: { record: ScoredRecord; now: number; config: ScoringConfig }): number {
  const { record, now, config } = options;
  const count = Math.max(0, record.accessCount || 0);
  if (count === 0 || config.accessWeight === 0) return 1 / (1 + config.accessWeight);
  const saturation = Math.min(1, Math.log1p(count) / Math.log1p(config.accessSaturation));
  const since = ageDays(record.lastAccessedAt, now);
  const freshness = since === undefined ? 0.5 : Math.pow(0.5, since / config.accessHalfLifeDays);
  return (1 + config.accessWeight * saturation * freshness) / (1 + config.accessWeight);
}

/** Long texts match many queries weakly; damp them past the anchor (log scale, never below ~0.3 in practice). */
export function lengthFactor(options: { text: string; config: ScoringConfig }): number {
  const { text, config } = options;
  const length = text.length;
  if (length <= config.lengthAnchorChars || config.lengthPenalty === 0) return 1;
  return 1 / (1 + config.lengthPenalty * Math.log2(length / config.lengthAnchorChars));
}

/** The text's last sentence is a question (an attached "[shares a photo ...]" or emoji aside). */
export function isQuestion(text: string): boolean {
  const body = text.replace(/\[[^\]]*\]\s*$/u, '').replace(/(?:\s|\p{Extended_Pictographic}|\u200d|\ufe0f)+$/u, '');
  return /[?？]$/u.test(body);
}

export function formFactor(options: { text: string; config: ScoringConfig }): number {
  return isQuestion(options.text) ? options.config.questionFactor : 1;
}

export function dateFactor(options: { time: number; range: QueryTimeRange | null | undefined; config: ScoringConfig }): number {
  if (!options.range || options.config.dateWeight === 0) return 1;
  return 1 - options.config.dateWeight * (1 - dateMatch({ time: options.time, range: options.range }));
}

export function applyScoring(options: {
  record: ScoredRecord;
  score: number;
  now: number;
  config: ScoringConfig;
  /** Time the query names (dates.ts); the record's time is `validFrom`, else `createdAt`. */
  dateRange?: QueryTimeRange | null;
  /** Text whose form is judged (default the record's); a conversation turn passes its own words. */
  formText?: string;
}): ScoredValue {
  const { record, now, config } = options;
  const time = Date.parse(record.validFrom || record.createdAt);
  const factors: ScoringFactors = {
    recency: recencyFactor({ record, now, config }),
    importance: importanceFactor({ importance: record.importance, config }),
    access: accessFactor({ record, now, config }),
    length: lengthFactor({ text: record.text, config }),
    form: formFactor({ text: options.formText ?? record.text, config }),
    date: dateFactor({ time, range: options.dateRange, config }),
  };
  const product = factors.recency * factors.importance * factors.access * factors.length * factors.form * factors.date;
  return { score: Math.min(1, Math.max(0, options.score * product)), factors };
}
