/**
 * Whether two near-identical statements state different facts. Sentence embeddings barely move
 * when a number, a date, a name or a negation changes ("staging port is 5432" vs "... 6543":
 * cosine 0.96 with the local model), so vector similarity alone would drop the newer value as a
 * duplicate. The details that carry a fact are compared exactly instead: numbers (ports, times,
 * versions, amounts), weekdays and months, negations, proper names, quoted strings and
 * identifiers. Any difference means "changed", never "duplicate".
 */

import { isNumberWithUnit, speltNumbers } from './spelt-numbers.js';

const NUMBER = /\d+(?:[.,:/-]\d+)*/g;
// Plurals count as the singular ("on tuesdays" is "on tuesday"); Spanish and Chinese weekdays too.
const WEEKDAY_MONTH =
  /\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|rsday|urday)?s?\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?\b|\b(?:today|tomorrow|yesterday|tonight|noon|midnight|am|pm)\b|\b(?:morning|afternoon|evening|night|weekend|weekday|weeknight)s?\b|\b(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados?|domingos?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre)\b|(?:周|星期|礼拜)[一二三四五六日天]/gi;
/** A weekday or month is compared as a time ("Tuesday" vs "tuesdays"), not as a name. */
const TIME_WORD = new RegExp(`^(?:${WEEKDAY_MONTH.source})$`, 'i');
const NEGATION =
  /\b(?:not|no|never|none|nothing|neither|nor|without|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|shouldn't|mustn't|hasn't|haven't|stopped|quit|dislikes?|hates?|avoids?)\b|n't\b|不|没|別|别|非/gi;
// A single quote inside a word is an apostrophe ("user's", "i'm"), not a quotation mark.
const QUOTED = /"([^"]{1,80})"|(?<![\p{L}\p{N}])'([^'\s][^']{0,78}[^'\s])'(?![\p{L}\p{N}])|`([^`]{1,80})`/gu;
// Identifiers: paths, hosts, emails, versions, words mixing letters and digits, snake/kebab case.
const IDENTIFIER = /[\w.-]+@[\w.-]+|[\w-]+(?:\.[\w-]+)+|\b(?=[a-z_-]*\d)[a-z0-9_-]*[a-z][a-z0-9_-]*\b|\b\w+[_-]\w+\b/gi;
// A capitalised word: a name (Alice, Berlin, PostgreSQL, Vim), unless it is a common sentence opener.
const NAME = /\b[A-Z][\w'-]*/g;
const OPENERS = new Set(
  'the a an this that these those it its he she they we i you user users my our your his her their when if in on at for to and but or so as after before always never please remember note use from with by of no yes since because every everything all any each both there here also just only then now reminder fyi btw'.split(
    ' ',
  ),
);

function all(re: RegExp, text: string, fold = true): string[] {
  return [...text.matchAll(re)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[0]).trim()).map((s) => (fold ? s.toLowerCase() : s));
}

function bag(items: string[]): string {
  return [...items].sort().join('\u0000');
}

/** A number as written in digits, or spelt out and read as digits. */
interface NumberRead {
  n: string;
  spelt: boolean;
}

type Details = Record<'times' | 'negations' | 'names' | 'quoted' | 'identifiers', string[]> & { numbers: NumberRead[] };

function details(text: string): Details {
  const normalized = text.normalize('NFKC');
  return {
    numbers: [...all(NUMBER, normalized).map((n) => ({ n, spelt: false })), ...speltNumbers(normalized).map((n) => ({ n, spelt: true }))],
    times: all(WEEKDAY_MONTH, normalized).map((t) => t.replace(/(day|ing|night|end|noon|bado|mingo)s$/, '$1')),
    negations: all(NEGATION, normalized).map((n) => (n.endsWith("n't") || n === 'not' || n === 'no' ? 'not' : n)),
    // "Leo's" is Leo; "I'm" and "User's" open a sentence.
    names: all(NAME, normalized)
      .map((n) => n.replace(/['’]s$/, ''))
      .filter((n) => !OPENERS.has(n.replace(/['’]\w*$/, '')) && !TIME_WORD.test(n)),
    quoted: all(QUOTED, normalized),
    // "4-day", "seven-year-old": the number counts with the numbers; the word is no identifier.
    identifiers: all(IDENTIFIER, normalized).filter((id) => !isNumberWithUnit(id)),
  };
}

/** The fact-carrying details of a statement, per kind (for explanations and tests). */
export function factDetails(text: string): Record<'numbers' | 'times' | 'negations' | 'names' | 'quoted' | 'identifiers', string[]> {
  const found = details(text);
  return { ...found, numbers: found.numbers.map((x) => x.n) };
}

/**
 * Numbers as digits or words, each matched once with the other side's. What is left over is a changed
 * value, unless it is only a count spelt out on one side: "two kids, 7 and 4" retells "Mia is 7 and
 * Leo is 4", while "two kids" → "three kids" and 5432 → 6543 are changes.
 */
function numbersDiffer(a: readonly NumberRead[], b: readonly NumberRead[]): boolean {
  const left = [...a];
  const right = [...b];
  for (let i = left.length - 1; i >= 0; i--) {
    const j = right.findIndex((r) => r.n === left[i]!.n);
    if (j < 0) continue;
    left.splice(i, 1);
    right.splice(j, 1);
  }
  if (left.length > 0 && right.length > 0) return true;
  return [...left, ...right].some((x) => !x.spelt);
}

/** True when `a` and `b` differ in a number, date, negation, name, quoted string or identifier. */
export function statesDifferentFacts(a: string, b: string): boolean {
  const x = details(a);
  const y = details(b);
  // Negations count by presence: "does not" and "doesn't" are the same statement.
  if (x.negations.length > 0 !== y.negations.length > 0) return true;
  if (numbersDiffer(x.numbers, y.numbers)) return true;
  for (const key of ['times', 'quoted', 'identifiers'] as const) {
    if (bag(x[key]) !== bag(y[key])) return true;
  }
  // A capitalised word counts as a changed name only when the other statement lacks the word in any case
  // ("Staging database ..." vs "The staging database ..." is the same statement).
  const words = (t: string) =>
    new Set(
      (
        t
          .normalize('NFKC')
          .toLowerCase()
          .match(/[\p{L}\p{N}'-]+/gu) ?? []
      ).map((w) => w.replace(/'s$/, '')),
    );
  const wa = words(a);
  const wb = words(b);
  // "PRs" and "PR" are one name.
  const lacks = (n: string, w: Set<string>) => !w.has(n) && !w.has(n.replace(/s$/, '')) && !w.has(`${n}s`);
  return x.names.some((n) => lacks(n, wb)) || y.names.some((n) => lacks(n, wa));
}
