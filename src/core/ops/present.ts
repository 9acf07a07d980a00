/** Compact, model-friendly shapes and wording shared by every model-facing host. */
import type { MemoryRecord } from '../../spec/memory-record.js';
import type { RecallHit } from '../recall/types.js';
import type { RememberResult } from '../engine/types.js';

export interface CompactMemory {
  id: string;
  text: string;
  scope: string;
  category: string;
  importance: number;
  tags: string[];
  validFrom: string;
  validTo?: string;
}

export function compactRecord(r: MemoryRecord): CompactMemory {
  return {
    id: r.id,
    text: r.text,
    scope: r.scope,
    category: r.category,
    importance: r.importance,
    tags: r.tags,
    validFrom: r.validFrom,
    ...(r.validTo ? { validTo: r.validTo } : {}),
  };
}

export function compactHit(h: RecallHit): CompactMemory & { score: number } {
  return { ...compactRecord(h.record), score: Number(h.score.toFixed(3)) };
}

/**
 * A relevance score as shown to a model or a person: a plain number with two decimals. Never a
 * percentage: scores rank results within one query and are not probabilities (a percentage of
 * "101%" or a confident "95%" would both mislead).
 */
export function formatScore(score: number): string {
  return Number.isFinite(score) ? score.toFixed(2) : '-';
}

/** What a duplicate was a duplicate of, in words. */
export function describeDuplicate(r: RememberResult): string {
  const d = r.duplicateOf;
  if (!d) return `memory ${r.id}`;
  return d.kind === 'exact'
    ? `memory ${r.id} (same text)`
    : `memory ${r.id} (near duplicate${d.similarity !== undefined ? `, similarity ${d.similarity.toFixed(2)}` : ''})`;
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
