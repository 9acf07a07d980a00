import { createHash } from 'node:crypto';
import type { EmbedderV1 } from '../../src/spec/embedder.js';

/** Deterministic pseudo-random generator (mulberry32) so every run builds the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ter',
  'an',
  'so',
  'vel',
  'ri',
  'du',
  'pen',
  'ox',
  'al',
  'zu',
  'ne',
  'gra',
  'fi',
  'tor',
  'em',
  'qua',
  'lis',
];

/** A vocabulary with a Zipf-like frequency so full-text posting lists look like real text. */
export function makeVocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

export function zipfPick(vocab: string[], random: () => number): string {
  // Inverse-CDF approximation of Zipf(s≈1): frequent words are picked far more often.
  const r = Math.pow(vocab.length, random()) - 1;
  return vocab[Math.min(vocab.length - 1, Math.floor(r))]!;
}

export function makeSentence(vocab: string[], random: () => number, min = 8, max = 24): string {
  const n = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: n }, () => zipfPick(vocab, random)).join(' ');
}

/** Unit vector derived from the text's hash: free to compute, stable across runs. */
export function hashVector(text: string, dims: number): number[] {
  const seed = createHash('sha256').update(text).digest().readUInt32LE(0);
  const random = rng(seed);
  const v = Array.from({ length: dims }, () => random() * 2 - 1);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** An embedder whose cost is ~0, to measure the engine without query-embedding time. */
export function createHashEmbedder(dims = 512): EmbedderV1 {
  return {
    specificationVersion: 'v1',
    id: `bench:hash-${dims}`,
    dimensions: dims,
    maxBatchSize: 10_000,
    supportsParallelCalls: true,
    distinguishesQueries: false,
    isRemote: false,
    async doEmbed({ texts }) {
      return { embeddings: texts.map((t) => hashVector(t, dims)) };
    },
  };
}
