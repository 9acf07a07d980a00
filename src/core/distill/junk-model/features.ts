/**
 * The features the user-message junk model reads: word unigrams and bigrams, and character
 * 2-5-grams inside each word (padded with a space, so a word's start and end are features too),
 * each block TF-IDF weighted with a sublinear term frequency and normalised to unit length on its
 * own. Character n-grams carry the model across spelling, inflection and informal typing ("pls",
 * "q", "dont"), which is how people write to an agent.
 */

/** A maximal run of two or more word characters, any script. */
const WORD = /[\p{L}\p{M}\p{N}_]{2,}/gu;
const CHAR_SIZES = [2, 3, 4, 5] as const;

export type FeatureBlock = 'words' | 'chars';
export const FEATURE_BLOCKS: readonly FeatureBlock[] = ['words', 'chars'];

export type TermCounts = Record<FeatureBlock, Map<string, number>>;

function bump(counts: Map<string, number>, term: string): void {
  counts.set(term, (counts.get(term) ?? 0) + 1);
}

/** How often each term of each block occurs in `text`. */
export function termCounts(text: string): TermCounts {
  const lower = text.toLowerCase();
  const words = new Map<string, number>();
  const tokens = lower.match(WORD) ?? [];
  for (const [i, token] of tokens.entries()) {
    bump(words, token);
    const next = tokens[i + 1];
    if (next !== undefined) bump(words, `${token} ${next}`);
  }
  const chars = new Map<string, number>();
  for (const word of lower.split(/\s+/)) {
    if (word === '') continue;
    const padded = Array.from(` ${word} `);
    for (const n of CHAR_SIZES) {
      for (let start = 0; start + n <= padded.length; start++) bump(chars, padded.slice(start, start + n).join(''));
      // A word no longer than n was itself the n-gram: counted once, not again for each larger n.
      if (padded.length <= n) break;
    }
  }
  return { words, chars };
}

/** Inverse document frequency, smoothed as if one document held every term. */
export function inverseDocumentFrequency(documents: number, documentsWithTerm: number): number {
  return Math.log((1 + documents) / (1 + documentsWithTerm)) + 1;
}

/** A term's weight before the block is normalised: sublinear term frequency times IDF. */
export function termWeight(count: number, idf: number): number {
  return (1 + Math.log(count)) * idf;
}
