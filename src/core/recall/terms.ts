/**
 * Query terms as the full-text index sees them: lower-cased words without English function words,
 * stemmed (Porter; the index uses Snowball English, which differs only on rare suffixes), every
 * CJK character its own term. Used to measure how much of a query a candidate covers.
 */
import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS } from '../../util/stop-words.js';
import { tokenize } from './tokens.js';

const STOP = new Set(ENGLISH_STOP_WORDS);
const LATIN_WORD = /^[a-z]+$/;
/** Stems of words seen lately: recall stems the same vocabulary over and over. */
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

/** Porter's stem of a plain lower-case word (cached); anything else as written. */
export function stem(token: string): string {
  let term = STEMS.get(token);
  if (term === undefined) {
    term = LATIN_WORD.test(token) ? stemmer(token) : token;
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    STEMS.set(token, term);
  }
  return term;
}

export function contentTerms(text: string): string[] {
  const out = new Set<string>();
  for (const token of tokenize(text)) {
    if (STOP.has(token)) continue;
    const term = stem(token);
    if (!STOP.has(term)) out.add(term);
  }
  return [...out];
}

/** Share of the query's distinct content terms found in `text` (0..1). */
export function termCoverage(options: { queryTerms: readonly string[]; text: string }): number {
  const { queryTerms } = options;
  if (queryTerms.length === 0) return 0;
  const present = new Set(contentTerms(options.text));
  return queryTerms.filter((t) => present.has(t)).length / queryTerms.length;
}
