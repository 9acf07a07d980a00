/**
 * Deterministic stand-ins for remote models, for scripted servers: a bag-of-words hashing
 * embedding (texts sharing words are close) and a word-overlap relevance score.
 */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** L2-normalised hashing embedding; an empty text gets a fixed unit vector. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const tokens = words(text);
  if (tokens.length === 0) vector[0] = 1;
  for (const token of tokens) {
    const h = hash(token);
    vector[h % dimensions] = (vector[h % dimensions] ?? 0) + ((h >>> 16) % 2 === 0 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

/** Fraction of the query's words found in the document (0..1). */
export function fakeRelevance(query: string, document: string): number {
  const q = new Set(words(query));
  if (q.size === 0) return 0;
  const d = new Set(words(document));
  let hits = 0;
  for (const w of q) if (d.has(w)) hits++;
  return hits / q.size;
}

/** The engine's own cosine, so tests measure with the same function recall uses. */
export { cosineSimilarity as cosine } from '../../src/core/recall/diversity.js';
