/**
 * Okapi BM25 (k1 1.2, b 0.75) with English stop words and Porter stemming: the independent
 * baseline the LoCoMo benchmark prints next to Strata's own recall (../shared/bench/README.md).
 */
import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS } from '../../src/util/stop-words.js';

const STOP = new Set(ENGLISH_STOP_WORDS);

export function bm25Terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)).map((w) => stemmer(w));
}

export class Bm25Index {
  private readonly docs: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(
    texts: readonly string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.docs = texts.map((t) => {
      const tf = new Map<string, number>();
      for (const term of bm25Terms(t)) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const term of tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      return tf;
    });
    this.lengths = this.docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0));
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** Document indexes, best first (documents with no query term are left out). */
  search(query: string, limit: number): number[] {
    const n = this.docs.length;
    const terms = [...new Set(bm25Terms(query))];
    const scores: Array<[number, number]> = [];
    this.docs.forEach((tf, i) => {
      let score = 0;
      for (const term of terms) {
        const f = tf.get(term);
        if (!f) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * this.lengths[i]!) / this.avgLength));
      }
      if (score > 0) scores.push([i, score]);
    });
    return scores
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, limit)
      .map(([i]) => i);
  }
}
