import { hasCjk } from '../signals.js';
import { keepProbability, userJunkModel, type LinearTextModel } from './model.js';

/**
 * Below this P(keep) the user-message model overrules the gate's checks. Chosen by leaving out one
 * read file at a time (`npm run bench -- admission --cv`): the largest floor that cost no keep row
 * learned there; it removed 4 of the 28 junk rows rules learned (0.15: 5, and 4 keep rows).
 */
export const USER_KEEP_FLOOR = 0.1;

/**
 * How a user's sentence is read: the model and its two thresholds. The shipped model and the
 * constants above by default; the benchmark passes others to validate the choice (bench/lib/junk-model-cv.ts).
 */
export interface UserModelReading {
  model: LinearTextModel;
  keepFloor: number;
  keepCeiling: number;
}

export function shippedUserModelReading(): UserModelReading {
  return { model: userJunkModel(), keepFloor: USER_KEEP_FLOOR, keepCeiling: USER_KEEP_CEILING };
}

/**
 * A sentence that opens as an explicit standing statement ("Always ...", "Never ...", "From now on
 * ...", "I prefer ...", "We use ...", "My X is ..."). The model's training sets hold many junk rows
 * dressed in these openings on purpose, so it learned to discount them, and a plain textbook rule
 * ("Always run the tests before pushing.") can fall under the floor; the gate's own checks judge
 * these instead.
 */
const EXPLICIT_OPENING_EN =
  /^(?:(?:please|pls|and|also|oh|ok|okay|so|btw|fyi|note|reminder)[,:\s]+)?(?:always|never|from now on|going forward|don'?t ever|do not ever|every ?time|whenever|(?:i|we) (?:always|never|prefer|like|love|hate|use|switched|moved|decided|don'?t)|my \p{L}+(?: \p{L}+)? (?:is|are)|our \p{L}+(?: \p{L}+)? (?:is|are|runs?|uses?|lives?))\b/iu;
const EXPLICIT_OPENING_ES =
  /^(?:(?:por favor|y|ojo|ok|nota|recuerda)[,:\s]+)?(?:siempre|nunca|jam[aá]s|a partir de ahora|de ahora en adelante|cada vez que|prefiero|preferimos|(?:yo )?uso|usamos|me cambi[eé]|nos cambiamos|decidimos|mi \p{L}+ es|nuestr[oa] \p{L}+ (?:es|est[aá]|usa|corre))(?![\p{L}])/iu;

/** An explicit opening with a statement after it: "a partir de ahora... bueno no" opens and says nothing. */
function opensExplicitly(sentence: string): boolean {
  const opening = EXPLICIT_OPENING_EN.exec(sentence) ?? EXPLICIT_OPENING_ES.exec(sentence);
  return opening !== null && (sentence.slice(opening[0].length).match(/[\p{L}\p{N}]+/gu) ?? []).length >= 2;
}

/**
 * The last reading of a user's sentence that passed the gate's checks: a model trained on labelled
 * user messages (model.ts) returns a reason when it reads the sentence as chatter, a task or a
 * passing remark worded like a statement ("oh yeah sure, always add another abstraction layer",
 * "a partir de ahora... bueno no, olvidalo"). It was trained on English and Spanish only, so text
 * in Chinese or Japanese is not read by it.
 */
export function userModelVeto(text: string, reading: UserModelReading = shippedUserModelReading()): { detail: string } | undefined {
  const sentence = text.trim();
  if (hasCjk(sentence) || opensExplicitly(sentence)) return undefined;
  const keep = keepProbability(reading.model, sentence);
  return keep <= reading.keepFloor ? { detail: `p(keep) ${keep.toFixed(3)}` } : undefined;
}

/**
 * Above this P(keep) a user's sentence needs no trigger phrase or fact word to be a candidate.
 * Chosen the same way: on the left-out files it added 62 keep rows and 6 junk rows to the 2,296
 * and 28 rules learned (0.95: 26 and 1; 0.85: 105 and 12; 0.8: 118 and 21).
 */
export const USER_KEEP_CEILING = 0.9;

/** A sentence the model reads as worth keeping with confidence (English and Spanish only). */
export function readsAsKept(sentence: string, reading: UserModelReading = shippedUserModelReading()): boolean {
  return !hasCjk(sentence) && keepProbability(reading.model, sentence.trim()) > reading.keepCeiling;
}

/**
 * At or above this P(keep) a user's sentence whose only sign of a passing state is a bare "now" or
 * "anymore" reads as a lasting change (admission.ts). The model's own boundary: it was trained with
 * balanced class weights, so 0.5 is where it reads keep and junk as equally likely.
 */
export const USER_LASTING_NOW = 0.5;

/** "mum lives with us now" (0.99) and not "ok now do the same for the other endpoint" (0.01). */
export function readsAsLastingChange(sentence: string, reading: UserModelReading = shippedUserModelReading()): boolean {
  return !hasCjk(sentence) && keepProbability(reading.model, sentence.trim()) >= USER_LASTING_NOW;
}
