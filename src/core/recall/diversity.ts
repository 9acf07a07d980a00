/**
 * Near-duplicate demotion: when two results say the same thing, the lower-ranked one moves to
 * the end of the list instead of being dropped (a paraphrase can still carry a detail the first
 * one lacks, and dropping would make `limit` silently return fewer distinct facts).
 */
import type { DiversityConfig } from './config.js';
import { tokenize } from './tokens.js';

export interface DiversityItem {
  id: string;
  text: string;
  vector?: readonly number[] | null;
}

export interface Demotion {
  id: string;
  similarTo: string;
  similarity: number;
  by: 'vector' | 'tokens';
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * Walks `items` in rank order; an item too similar to an already kept item is demoted.
 * Near-duplicate: cosine above `vectorThreshold` (when both have vectors) or token-set Jaccard above `tokenThreshold`.
 * Returns the new order (kept items, then demoted ones in their original order).
 */
function norm(v: readonly number[] | null | undefined): number {
  if (!v) return 0;
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] ?? 0) ** 2;
  return Math.sqrt(n);
}

function dot(a: readonly number[], b: readonly number[]): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += (a[i] ?? 0) * (b[i] ?? 0);
  return d;
}

/**
 * `keep`: once this many items are kept, the rest keep their order unchecked. Only the first
 * `limit` of the result are returned, so comparing further items cannot change the answer.
 */
export function demoteNearDuplicates(options: { items: readonly DiversityItem[]; config: DiversityConfig; keep?: number }): {
  order: string[];
  demoted: Demotion[];
} {
  const { items, config } = options;
  if (!config.enabled) return { order: items.map((i) => i.id), demoted: [] };
  const kept: Array<DiversityItem & { tokens: Set<string>; norm: number }> = [];
  const demoted: Demotion[] = [];
  const keep = options.keep ?? Number.POSITIVE_INFINITY;
  let unchecked: string[] = [];
  for (const [index, item] of items.entries()) {
    if (kept.length >= keep) {
      unchecked = items.slice(index).map((i) => i.id);
      break;
    }
    const tokens = new Set(tokenize(item.text));
    const itemNorm = norm(item.vector);
    let match: Demotion | undefined;
    for (const k of kept) {
      const useVectors = itemNorm > 0 && k.norm > 0 && item.vector!.length === k.vector!.length;
      // Norms computed once per item: the pairwise loop is one dot product each.
      const cosine = useVectors ? dot(item.vector!, k.vector!) / (itemNorm * k.norm) : undefined;
      if (cosine !== undefined && cosine > config.vectorThreshold) {
        match = { id: item.id, similarTo: k.id, similarity: cosine, by: 'vector' };
        break;
      }
      const overlap = jaccard(tokens, k.tokens);
      if (overlap > config.tokenThreshold) {
        match = { id: item.id, similarTo: k.id, similarity: overlap, by: 'tokens' };
        break;
      }
    }
    if (match) demoted.push(match);
    else kept.push({ ...item, tokens, norm: itemNorm });
  }
  return { order: [...kept.map((k) => k.id), ...unchecked, ...demoted.map((d) => d.id)], demoted };
}
