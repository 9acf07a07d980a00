import type { EvidenceMessage, MemoryEvidence } from './grounding.js';
import { canonicalValue, contentWords, STOP, valueWords, weekdays, word } from './grounding-words.js';
import { fold } from './spanish.js';

/**
 * A value the user corrected later in the conversation, still in the memory an extractor wrote:
 * "db is on 5433 ... sorry, 5434" kept as 5433, "cabal, not stack" kept as stack, "sorry wrong, its
 * wed and sun" kept as Tuesday and Saturday. Only a correction after every message the memory cites
 * counts; the value must be one the memory took from those messages.
 */

const CORRECTION = [
  word(
    String.raw`actually|sorry|correction|i meant|i mean|my bad|scratch that|wait|hang on|hold on|oops|typo|misspoke|mis-said|misread|no no|nvm|never mind|make that|rather`,
  ),
  word(
    String.raw`perdon|perdona|perdone|en realidad|me equivoque|me he liad?o|me lie|me confundi|quise decir|corrijo|correccion|mejor dicho|error mio|digo|espera|no no`,
  ),
  /不对|更正|说错|其实是|我是说|应该是|搞错|写错/u,
];

/** "cabal, not stack", "no es stack sino cabal", "del 14 no del 12", "不是stack": the value the user takes back. */
const TAKEN_BACK = [
  /(?<![\p{L}\p{N}])(?:not|no|isn'?t|wasn'?t|instead of)\s+(?:the\s+|a\s+|an\s+)?([\p{L}\p{N}][\p{L}\p{N}._-]*)/giu,
  /(?<![\p{L}\p{N}])(?:no es|no era|no son|en vez de|en lugar de)\s+(?:el\s+|la\s+|los\s+|las\s+|un\s+|una\s+)?([\p{L}\p{N}][\p{L}\p{N}._-]*)/giu,
  /(?<![\p{L}\p{N}])no\s+(?:del|al|el|la|los|las|a las|a la|en)\s+([\p{L}\p{N}][\p{L}\p{N}._-]*)/giu,
  /不是([\p{L}\p{N}]+)/gu,
];

/** Words that own up to a slip, beyond a plain "sorry": enough to read new days right after as a correction. */
const SLIP = [
  word(String.raw`wrong|my bad|i meant|mistake|typo|misspoke|mixed (?:it|them) up|correction`),
  word(String.raw`me equivoque|me he liado|me lie|quise decir|error mio|correccion|mal dicho`),
  /说错|搞错|写错|弄错|记错|不对/u,
];

const NUMBER = /\d+(?:[.:,]\d+)*/g;

function numbers(text: string): Set<string> {
  return new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/^0+(?=\d)/, '')));
}

/** The words just around each place `value` stands in `text` (two before, one after), stop words left out. */
function neighbours(text: string, value: string): string[] {
  const tokens = fold(text).match(/[\p{L}]+|\d+(?:[.:,]\d+)*/gu) ?? [];
  const out: string[] = [];
  for (const [i, token] of tokens.entries()) {
    if (token.replace(/^0+(?=\d)/, '') !== value) continue;
    out.push(
      ...[tokens[i - 2], tokens[i - 1], tokens[i + 1]].filter(
        (w): w is string => w !== undefined && /^\p{L}{2,}$/u.test(w) && !STOP.has(w) && !NEAR_STOP.has(w),
      ),
    );
  }
  return out;
}

/** Short words that sit beside numbers everywhere ("at", "es", "the"), which say nothing of what is counted. */
const NEAR_STOP = new Set('to at on in of by is it its es en el la de a the and or per about like around maybe'.split(' '));

/** "min" and "minimum", "year" and "years": the same word, give or take its ending. */
function sharesStem(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return n >= 3 && a.slice(0, n) === b.slice(0, n);
}

const GONE = word(
  String.raw`old|older|wrong|outdated|no longer|not anymore|anymore|gone|deleted|dropped|deprecated|dead|viej[oa]s?|antigu[oa]s?|ya no|equivocad[oa]|borrad[oa]|borramos|no existe|旧的|不用了|已经删`,
);

/** "pkumar" names "dbt_pkumar", "jest.config" names "jest": a value of the memory as the user wrote it. */
const names = (said: string, value: string): boolean => said === value || value.endsWith(`_${said}`) || said.startsWith(`${value}.`);

/** A word of the memory, said in its sources, that the correction calls old, wrong or gone nearby. */
function droppedWord(folded: string, memoryWords: Set<string>, sources: EvidenceMessage[]): string | undefined {
  const said = new Set(sources.flatMap((s) => [...valueWords(s.text)]));
  // "the old dim color" calls nothing old of a memory that says "old" itself.
  const values = [...memoryWords].filter((w) => said.has(w) && !GONE.test(w));
  for (const clause of folded.split(/[.,;!?\n]\s|\b(?:but|and|pero|y)\b/u)) {
    if (!GONE.test(clause)) continue;
    for (const w of clause.match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*[\p{L}\p{N}]/gu) ?? []) {
      const value = values.find((v) => names(canonicalValue(w), v));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/**
 * Whether a correction speaks of what the memory is about: a word of it (give or take its ending)
 * is in the memory, or it names nothing else ("its tuesday not thursday") and follows the source.
 */
function aboutTheMemory(clause: string, memoryWords: Set<string>, adjacent: boolean): boolean {
  const words = [...contentWords(clause)].filter(
    (w) => !/\d/.test(w) && weekdays(w).size === 0 && !CORRECTION.some((re) => re.test(w)) && !SLIP.some((re) => re.test(w)),
  );
  if (words.length === 0) return adjacent;
  return words.some((w) => [...memoryWords].some((m) => sharesStem(w, m)));
}

/** "its Release-Beta not beta-release", "es el 14 no el 12": a value put right, no "sorry" needed. */
// "it is still not working" says how a thing is, not which value is right.
const PUT_RIGHT =
  /(?<![\p{L}])(?:it'?s|its|that'?s|thats|is|are|es|son)\s+(?!(?:still|just|really|also|already|even|probably|definitely|simply|actually|currently|now|todavia|aun|ya|tambien)(?![\p{L}]))[^\s,.;]+(?:\s+[^\s,.;]+)?,?\s+(?:not|no)\s+(?:the\s+|a\s+|an\s+|el\s+|la\s+|del\s+)?([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu;

/** The values a message puts right with no correction word: "its Release-Beta not beta-release" → beta-release. */
const putRight = (folded: string): Set<string> =>
  new Set([...folded.replace(/[\u2018\u2019]/g, "'").matchAll(PUT_RIGHT)].map((m) => canonicalValue(m[1]!.replace(/[._-]+$/, ''))));

/** A session's messages are read once for every memory written from it: fold each once. */
const foldedText = new WeakMap<EvidenceMessage, string>();
function foldedOnce(message: EvidenceMessage): string {
  let text = foldedText.get(message);
  if (text === undefined) foldedText.set(message, (text = fold(message.text)));
  return text;
}

const isCorrection = (folded: string): boolean => CORRECTION.some((re) => re.test(folded));

/**
 * "Changed `dimGray` from `#444444` to `#585858`", "`gray: 242` → `#6c6c6c`", "replaced X with Y":
 * a value the session itself changed (the agent at work, or the user), as old → new pairs.
 */
const CHANGED = [
  /([^\s`'"(]+)[`'")]*\s*(?:→|->|=>)\s*[`'"(]*([^\s`'",;)]+)/gu,
  /\bfrom\s+[`'"]?([^\s`'",;]+)[`'"]?\s+to\s+[`'"]?([^\s`'",;]+)/giu,
  /\breplaced?\s+[`'"]?([^\s`'",;]+)[`'"]?\s+with\s+[`'"]?([^\s`'",;]+)/giu,
  /(?<![\p{L}])(?:de|del)\s+[`'"]?([^\s`'",;]+)[`'"]?\s+(?:a|al)\s+[`'"]?([^\s`'",;]+)/giu,
];

/** A line that tells of a change; an arrow or "from X to Y" elsewhere is a flow ("1Password → op → gpg"), not a change. */
const CHANGE_WORD = word(
  String.raw`chang(?:e|ed|es|ing)|updated?|switched|replaced?|renamed?|moved|bumped|convert(?:ed|ing)?|conversions?|restored?|back to|now|cambi(?:e|o|ado|amos)|pase|pasamos|actualic(?:e|amos)|改成|改为|换成`,
);

/** A value as code and settings write it: a digit or a mark in it (#444444, 5433, v2.1, gpg.exe), not a plain word. */
const VALUE_LIKE = /[\d#._/@-]|\p{Ll}\p{Lu}/u;

/** The values a message says were changed, old → new, lowercased, quotes and trailing stops left off. */
function changes(text: string): Array<[string, string]> {
  const bare = (v: string) => v.replace(/[.:]+$/, '').toLowerCase();
  const out: Array<[string, string]> = [];
  // A line tells of a change itself, or sits in the list under a heading that does ("The conversions I made:").
  let heading = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') heading = false;
    const says = CHANGE_WORD.test(fold(line));
    const told = heading || says;
    if (/:\s*$/.test(line)) heading = says;
    for (const re of told ? CHANGED : [])
      for (const m of line.matchAll(re)) {
        if (!VALUE_LIKE.test(m[1]!)) continue;
        const [from, to] = [bare(m[1]!), bare(m[2]!)];
        if (from !== '' && to !== '' && from !== to) out.push([from, to]);
      }
  }
  return out;
}

/** Every memory of a batch reads the same later messages: parse each once. */
const parsedChanges = new WeakMap<EvidenceMessage, Array<[string, string]>>();
function changesOnce(message: EvidenceMessage): Array<[string, string]> {
  let found = parsedChanges.get(message);
  if (found === undefined) parsedChanges.set(message, (found = changes(message.text)));
  return found;
}

/** `value` stands whole in `text` (lowercased): "#444444" in "dimgray is #444444.", not "5433" in "15433". */
function holds(text: string, value: string): boolean {
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    const [before, after] = [text[at - 1] ?? ' ', text[at + value.length] ?? ' '];
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true;
  }
  return false;
}

/**
 * A value the memory took from its sources that a later message of the session changed, the new
 * value not in the memory: the memory keeps what the session left behind ("dimGray is #444444"
 * after "changed dimGray from #444444 to #585858"). Any role: the agent reports what it changed.
 */
export function changedLater(memory: string, sources: EvidenceMessage[], evidence: MemoryEvidence): string | undefined {
  if (sources.length === 0) return undefined;
  const last = Math.max(...sources.map((s) => evidence.messages.indexOf(s)));
  const said = sources.map((s) => s.text.toLowerCase());
  const text = memory.toLowerCase();
  for (const message of evidence.messages.slice(last + 1))
    for (const [from, to] of changesOnce(message))
      if (holds(text, from) && said.some((s) => holds(s, from)) && !holds(text, to)) return from;
  return undefined;
}

/** The value a correction of the user's replaced, still in the memory; undefined when none. */
export function correctedValue(memory: string, sources: EvidenceMessage[], evidence: MemoryEvidence): string | undefined {
  if (sources.length === 0) return undefined;
  const last = Math.max(...sources.map((s) => evidence.messages.indexOf(s)));
  const next = evidence.messages.findIndex((m, i) => i > last && m.role === 'user');
  const memoryWords = valueWords(memory);
  const memoryNumbers = numbers(memory);
  const memoryDays = weekdays(memory);
  const sourceNumbers = new Set(sources.flatMap((s) => [...numbers(s.text)]));
  const sourceDays = new Set(sources.flatMap((s) => [...weekdays(s.text)]));
  // What the memory took from its sources: a value taken back later must be one of these.
  const said = new Set([...sources.flatMap((s) => [...valueWords(s.text)]), ...sourceNumbers]);
  for (const [i, correction] of evidence.messages.entries()) {
    if (i <= last || correction.role !== 'user') continue;
    const folded = foldedOnce(correction);
    // Put right without a "sorry", the message names the value it takes back and says no more.
    const marked = isCorrection(folded);
    const named = marked ? undefined : putRight(folded);
    if (named?.size === 0) continue;
    for (const clause of folded.split(/[.;!?](?:\s+|$)|\n|,\s+/u)) {
      for (const re of TAKEN_BACK) {
        for (const match of clause.matchAll(re)) {
          const value = canonicalValue(match[1]!.replace(/[._-]+$/, ''));
          if (named && !named.has(value)) continue;
          if (!said.has(value) || !(memoryWords.has(value) || memoryNumbers.has(value)) || fold(memory).includes(`not ${value}`)) continue;
          // A day is named of many things in one conversation: "physio is wednesdays not thursdays"
          // corrects the physio, not the training the memory is about.
          if (!weekdays(value).size || aboutTheMemory(clause, memoryWords, i === next)) return value;
        }
      }
    }
    if (!marked) continue;
    // "pkumar is my old teammate", "develop ya no existe", "ese jest.config es viejo": the correction
    // names a word of the memory, said in its sources, and calls it old, wrong or gone.
    const dropped = droppedWord(folded, memoryWords, sources);
    if (dropped !== undefined) return dropped;
    // "tues/sat ... sorry wrong, its wed and sun": right after, owning up to a slip, other days.
    if (i === next && SLIP.some((re) => re.test(folded))) {
      for (const clause of folded.split(/[.;!?](?:\s+|$)|\n|,\s+/u)) {
        const days = weekdays(clause);
        if (![...days].some((d) => !sourceDays.has(d) && !memoryDays.has(d)) || !aboutTheMemory(clause, memoryWords, true)) continue;
        const stale = [...memoryDays].find((d) => sourceDays.has(d) && !days.has(d));
        if (stale !== undefined) return stale;
      }
    }
    // "5433 ... sorry, 5434. 5433 is the old container", "year 4 ... its year 3 actually": the
    // correction gives a number the sources did not, the memory keeps the sources' one instead, and
    // the correction names that number again or says the new one of the same thing (a word beside it).
    const fresh = [...numbers(correction.text)].filter((n) => !sourceNumbers.has(n));
    if (fresh.length === 0 || fresh.some((n) => memoryNumbers.has(n))) continue;
    const sameTopic = i === next || [...contentWords(correction.text)].some((w) => memoryWords.has(w));
    for (const stale of [...memoryNumbers].filter((n) => sourceNumbers.has(n))) {
      if (sameTopic && numbers(correction.text).has(stale)) return stale;
      const before = sources.flatMap((s) => neighbours(s.text, stale));
      if (fresh.some((n) => neighbours(correction.text, n).some((w) => before.some((b) => sharesStem(w, b))))) return stale;
    }
  }
  return undefined;
}
