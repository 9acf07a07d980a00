import type { AdmissionSource } from '../../src/core/distill/admission.js';

/**
 * A learned baseline for the admission gate, measured, not shipped: logistic regression over the
 * words of a candidate, where it comes from and what the hand-written rules said about it
 * (`npm run bench -- admission --cv` fits it per fold on the other tune transcripts). It answers
 * whether a classifier fitted to the labelled set would separate keepers from junk better than the
 * rules, in particular a standing fact told in narration ("The User interface only has id and
 * username fields") from narration ("I updated the User interface").
 */
export interface DurabilityModel {
  readonly version: 1;
  readonly bias: number;
  readonly weights: Readonly<Record<string, number>>;
}

export interface DurabilityInput {
  text: string;
  source: AdmissionSource;
  /** What the rules decided: `admit`, or the rejection reason. */
  ruling: string;
}

const CODE_SPAN = /`[^`\n]+`/g;
const URL = /\bhttps?:\/\/\S+/g;
const PATH = /(?:~|\.{1,2})?(?:\/?[\w.@-]+\/)+[\w.@-]+/g;
const NUMBER = /\d+(?:[.,]\d+)*/g;
const WORD = /[\p{L}\p{N}_]+|[\u3400-\u9fff]/gu;

/** Words with code, paths, links and numbers folded into one token each, so names do not count. */
export function durabilityWords(text: string): string[] {
  const folded = text.replace(CODE_SPAN, ' qcode ').replace(URL, ' qurl ').replace(PATH, ' qpath ').replace(NUMBER, ' 0 ').toLowerCase();
  return folded.match(WORD) ?? [];
}

/** The feature names of one candidate: source, ruling, shape, words and word pairs. */
export function durabilityFeatures(input: DurabilityInput): string[] {
  const { text, source, ruling } = input;
  const words = durabilityWords(text);
  const out = new Set<string>([`src:${source}`, `rule:${ruling}`, `src-rule:${source}:${ruling}`]);
  const first = words[0];
  if (first) out.add(`first:${first}`);
  if (words.length > 1) out.add(`first2:${first} ${words[1]}`);
  out.add(`len:${Math.min(6, Math.floor(Math.log2(1 + words.length)))}`);
  const end = text.trim().slice(-1);
  out.add(`end:${/[.!?:;)]/.test(end) ? end : /[\u3002\uff01\uff1f]/.test(end) ? 'cjk' : 'none'}`);
  if (/`[^`\n]+`/.test(text)) out.add('has:code');
  for (let i = 0; i < words.length; i++) {
    out.add(`w:${words[i]}`);
    if (i + 1 < words.length) out.add(`b:${words[i]} ${words[i + 1]}`);
  }
  return [...out];
}

export function durabilityProbability(model: DurabilityModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return 1 / (1 + Math.exp(-z));
}
