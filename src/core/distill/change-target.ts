/**
 * Offline supersession beyond the known slots (slots.ts): "we ripped datadog out, logs go to loki
 * now", "standup moved to 10", "i report to james now". Without an LLM, a statement that says
 * something changed replaces the current memory it is about:
 * - the memory naming what the statement says was replaced ("switched from X", "ditched X",
 *   "no longer X", "instead of X"), or, failing a name,
 * - the memory that shares the statement's subject: the same content words around a different value.
 * A statement that adds a second thing ("also", "as well", "another") never replaces anything.
 */
import { stem } from '../recall/terms.js';
import { statesDifferentFacts } from '../write/changed-fact.js';
import {
  ADDITIVE_ES,
  CHANGE_ES,
  DROPPED_FIRST_ES,
  CHANGED_VERB_RE_ES,
  IDIOMS_ES,
  foldEs,
  NAME_END_ES,
  REPLACED_AFTER_ES,
  REPLACED_BEFORE_ES,
  REPLACED_BY_ES,
  STOP_ES,
  stemEs,
  STRONG_CHANGE_ES,
} from './change-target-es.js';
import { looksSpanish } from './spanish.js';
import { CHANGED_VERB_ES_ACCENTED } from './spanish-verbs.js';

const STOP = new Set(
  (
    'a an the this that these those it its is are was were be been being am do does did has have had having will would ' +
    'shall should can could may might must to of in on at for with as by from into onto over about up out off via per before after ' +
    'full half whole main first second last next big small little good best better ' +
    'and or but so than then if when while because since until not no nor never now anymore any more also too very just ' +
    'really still only even all some every each both either neither other another such same own new old current ' +
    'they them their theirs he him his she her hers we us our ours you your yours i me my mine user users team ' +
    'use uses used using prefer prefers preferred like likes want wants wanted need needs get gets got go goes going gone went ' +
    'make makes made keep keeps kept switch switched switching move moved moving change changed changing instead rather ' +
    'these days lately recently nowadays going forward from now on starting today there here what which who whom whose ' +
    'pls please thanks fyi btw tbh rn ok okay yeah yes run runs ran work works worked live lives ship ships handle handles ' +
    'one ones called named getting slipped ported converted rewrote rewritten upgraded downgraded bumped swapped ditched dropped scrapped ' +
    "we're we've i'm i've they're they've it's that's there's don't doesn't didn't isn't aren't can't won't"
  ).split(/\s+/),
);

const STOP_WITH_ES = new Set([...STOP, ...STOP_ES]);

/** "by hand", "on time", "a mano", "de baja": set phrases, never what a statement is about. */
const IDIOMS_EN =
  /\b(?:by hand|on foot|in person|on time|in time|at times|for now|at least|at most|in fact|of course|in general|by default|at once|on purpose)\b/gi;

function withoutIdioms(folded: string): string {
  return folded.replace(IDIOMS_EN, ' ').replace(IDIOMS_ES, ' ');
}

/**
 * Lower-cased, accent-folded content words, stemmed: "bugs" and "bug", "shopping" and "shop",
 * "approvals" and "approval" are one word (Porter for English). Words of time stay whole, so the
 * checks on days and times of day below read them as written.
 */
export function subjectWords(text: string): Set<string> {
  const spanish = looksSpanish(text);
  const stop = spanish ? STOP_WITH_ES : STOP;
  const words = withoutIdioms(foldEs(text)).match(/[\p{L}\p{N}][\p{L}\p{N}'+#.-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu) ?? [];
  return new Set(
    words
      .map((w) => w.replace(/'s$/, ''))
      .filter((w) => !stop.has(w) && w.length > 1)
      .map((w) => (spanish ? stemEs(w) : stemEn(w))),
  );
}

/** "PRs", "bugs", "shopping": Porter's stem of a plain word; names with digits or signs ("node.js", "c++") as written. */
const stemEn = (word: string): string => (WHEN_WORD.test(word) ? word : stem(word));

// What follows one of these is the thing replaced: "ditched X", "moved off X", "no longer use X".
const REPLACED_BEFORE =
  /\b(?:(?:switched|moved|migrated|changed|went|converted|ported|upgraded|downgraded)\s+(?:over\s+|away\s+)?from|moved\s+(?:off|away\s+from)(?:\s+of)?|(?:ditched|ditching|dropped|dumped|binned|axed|nuked|shelved|scrapping|abandoning|retired|killed|scrapped|removed|replaced|swapped|sunset(?:ted)?|deprecated|abandoned|uninstalled|cancell?ed)|(?<=\b(?:we|i)(?:'re|'m|\s+are|\s+am)?\s)dropping|ripped|got\s+rid\s+of|gave\s+up(?:\s+on)?|stopped\s+(?:using|doing|going\s+to|drinking|eating)|stopped(?=\s+(?!(?:working|responding|loading|syncing|charging|booting|updating|printing|connecting)\b)\p{L}+ing(?:\s*[.,;!]|\s+(?:and|because|since|so|as|after|altogether|completely)\b|\s*$))|quit|sold|done\s+with|left(?!\s+(?:it|that|this|them|side|hand|over|behind|off|out|alone|open|on|in|at|for|to|a|an|early|home|work)\b)|no\s+longer\s+(?:use|using|on|with|at|in|have|work\s+(?:at|for|on|with)|go\s+to|eat|drink|do)|not\s+(?:using|on|with|at|in)|(?:do|does|did)(?:n['’]?t|\s+not)\s+(?:really\s+|even\s+)?(?:need|have|wear|eat|drink|take|own|use|play|drive|go\s+to|live\s+in|work\s+(?:at|for|on|with))(?=(?:\s+[\p{L}\p{N}.+#/'-]+){1,4}\s+any\s?more\b)|instead\s+of|no\s+more|traded\s+in|(?<!\b(?:from|a|the|my|our|your|no|any|this|that)\s)scratch(?=\s+\p{L})|merged|(?:'re|'m|\bare|\bam|got|went|came|finally|moved|fully)\s+off(?:\s+of)?|let(?:\s+(?:the|our|my))?(?=\s+[\p{L}\p{N}.-]+(?:\s+[\p{L}\p{N}.-]+)?\s+(?:lapse|expire|go)\b)|(?:switched|moved|migrated|changed|converted|ported)\s+(?:[\p{L}\p{N}.-]+\s+){1,3}(?:from|off(?:\s+of)?)|used\s+to\s+(?:use|be|have|go\s+to|work\s+(?:at|for|on)|live\s+in))\s+(?:the\s+|our\s+|my\s+|their\s+|a\s+|an\s+)?([\p{L}\p{N}][\p{L}\p{N}_.+#/-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}_.+#/-]*){0,2})/giu;
// What precedes one of these was replaced: "X is gone", "X is out", "X's off the table", "X sub lapsed", "X → Y".
const REPLACED_AFTER =
  /([\p{L}\p{N}][\p{L}\p{N}.+#/-]*)(?:'s|\s+(?:is|was|are|were|has\s+been|have\s+been|got|is\s+being|are\s+being))\s+(?:gone|out|dead|retired|deprecated|replaced|dropped|history|no\s+more|over|cancell?ed|archived|deleted|removed|shut\s+(?:off|down)|off\s+the\s+table|off)\b|([\p{L}\p{N}][\p{L}\p{N}.+#/-]*)\s+(?:(?:sub|subscription|licen[cs]e|contract|plan|membership|trial)\s+)?(?:finally\s+|just\s+)?(?:died|broke|is\s+dead|lapsed|expired)\b|([\p{L}\p{N}][\p{L}\p{N}.+#/-]*)\s*(?:->|→|=>)\s*[\p{L}\p{N}]/giu;
// The first words of a memory, up to its first clause break: where it names what it is about.
const FUNCTION_WORDS =
  /^(?:to|for|with|and|but|now|in|on|at|as|because|since|so|it|them|that|this|anymore|any|out|over|last|yesterday|from|into|onto|after|before|entirely|completely|already|finally)$/i;

/** The names a change statement says were replaced, lower-cased (may be empty). */
export function replacedNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(REPLACED_BEFORE)) {
    const words = m[1]!.split(/\s+/);
    const cut = words.findIndex((w) => FUNCTION_WORDS.test(w));
    const kept = cut < 0 ? words : words.slice(0, cut);
    // "the circleci contract lapse": the longest start of the phrase a memory mentions.
    for (let n = kept.length; n > 0; n--) names.push(kept.slice(0, n).join(' ').toLowerCase());
  }
  for (const m of text.matchAll(REPLACED_AFTER)) {
    const name = (m[1] ?? m[2] ?? m[3])!.toLowerCase();
    if (!STOP.has(name)) names.push(name);
  }
  const folded = foldEs(text);
  for (const m of folded.matchAll(REPLACED_BEFORE_ES)) {
    const words = m[1]!.split(/\s+/);
    const cut = words.findIndex((w) => NAME_END_ES.test(w));
    const kept = cut < 0 ? words : words.slice(0, cut);
    for (let n = kept.length; n > 0; n--) names.push(kept.slice(0, n).join(' '));
  }
  for (const m of folded.matchAll(REPLACED_BY_ES)) for (const n of m[1]!.split(/\s+(?:y|e)\s+/)) names.push(n);
  for (const m of folded.matchAll(REPLACED_AFTER_ES)) if (!STOP_ES.includes(m[1]!)) names.push(m[1]!);
  for (const m of folded.matchAll(DROPPED_FIRST_ES)) names.push(m[1]!.replace(/^(?:el|la|los|las) /, ''));
  // "los sacamos a mano" drops no "mano": a set phrase's noun is never the thing replaced.
  const idiomNouns = new Set([...folded.matchAll(IDIOMS_EN), ...folded.matchAll(IDIOMS_ES)].map((m) => m[0].split(/\s+/).at(-1)));
  // "instead of the 7a.": the sentence's full stop is no part of the name.
  return names.map((n) => n.replace(/[.]+$/, '')).filter((n) => subjectWords(n).size > 0 && !idiomNouns.has(n.split(/\s+/)[0]));
}

/** A second thing beside the first: "we also use Redis", "another repo", "as well", "me too". */
export function isAdditive(text: string): boolean {
  if (ADDITIVE_ES.test(foldEs(text))) return true;
  // "moved to another team": after a preposition, "another" is where, not a second thing.
  return /\b(?:also|as well|in addition|additionally|alongside|besides|(?<!\b(?:to|from|with|for|into|onto|in|at|by) )another|a second|separate(?:ly)?)\b|\btoo\b(?=\s*(?:[.,!;)]|$))/i.test(
    text,
  );
}

/** A change verb of spanish-verbs.ts, in Spanish text: "cancelé netflix", "valen dejó natación". */
function spanishChangeVerb(text: string): boolean {
  return (
    looksSpanish(text) && (CHANGED_VERB_RE_ES.test(foldEs(text)) || CHANGED_VERB_ES_ACCENTED.test(text.normalize('NFC').toLowerCase()))
  );
}

const NOW_MISBEHAVING =
  /\b(?:y\s+)?ahora\s+(?:ya\s+)?no\s+(?:me|le|nos|te|se)\s+(?:deja|dejan|funciona|funcionan|anda|andan|carga|cargan|abre|abren|arranca|prende|sirve|va)\b|\bnow\s+(?:it|he|she|they|the \w+)\s+(?:won't|doesn't|don't|can't|isn't|keeps)\b/gi;

/** The statement says the situation is new: "now", "these days", "anymore", "from now on", "moved to". */
export function marksChange(said: string): boolean {
  // "y ahora no me deja actualizar", "now it won't start": something misbehaving now, not a change.
  // "New York", "New Relic": a name, not news.
  const text = said.replace(NOW_MISBEHAVING, ' ').replace(/\bNew\s+(?=\p{Lu})/gu, ' ');
  if (CHANGE_ES.test(foldEs(text)) || spanishChangeVerb(text)) return true;
  return /\b(?:now|nowadays|these days|anymore|any more|no longer|from now on|from here on|going forward|starting (?:today|tomorrow|this|next|on|from|in)|as of|since (?:last|this|the (?:start|beginning) of)|moved|moving|switched|switching|changed|changing|replaced|replacing|hired|ditched|dropped|(?<!\b(?:be|been|being|get|gets|getting)\s)merged|killed|binned|axed|nuked|shelved|ditching|scrapping|abandoning|(?<=\b(?:we|i)(?:'re|'m| are| am)?\s)dropping|lapsed|expired|cancell?ed|quit|left|promoted|demoted|transferred|sold|gave up|done with|stopped|shortened|lengthened|extended|reduced|increased|raised|lowered|cut (?:down|back)|halved|doubled|migration to|move to|switch to|is out|are out|archived|deleted|removed|swapped|bumped|upgraded|shifted|pushed|traded|migrated|ported|converted|rewrote|rewritten|slipped|died|off|gone|new\b|instead|used to|not \S+ any ?more|no more|is gone|are gone|(?:is|are) history|started using|put (?:[\w-]+ ){1,3}(?:up|down) to|(?:since|after) the (?:[\w-]+ ){0,2}(?:reorg|re-org|migration|move|switch|merger|upgrade|rewrite|restructure|restructuring))\b|->|→/i.test(
    text,
  );
}

/** A memory's first clause: "Our CI is CircleCI" of "Our CI is CircleCI, config lives in ...". */
function headClause(text: string): string {
  return text.split(/[,;:(]\s|\s[—–-]\s/)[0]!;
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` names `name` as written, or in another form of its words ("no more sugar" and "two sugars"). */
function mentions(text: string, name: string): boolean {
  const escaped = escapeRe(foldEs(name));
  if (new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(foldEs(text))) return true;
  const words = subjectWords(name);
  if (words.size === 0 || looksSpanish(name)) return false;
  const theirs = subjectWords(text);
  return [...words].every((w) => theirs.has(w)) || spellsOut(text, name);
}

/** "gave up on VS" and "visual studio 2022", "GCP" and "Google Cloud Platform": a short name as the initials of words in a row. */
function spellsOut(text: string, name: string): boolean {
  if (!/^[a-z]{2,4}$/i.test(name)) return false;
  const initials = (foldEs(text).match(/[\p{L}][\p{L}'-]*/gu) ?? []).map((w) => (STOP.has(w) ? ' ' : w[0]!)).join('');
  return initials.includes(name.toLowerCase());
}

/**
 * Besides `primary` (what `replacedMemory` chose), the current memories that are about the same
 * dropped name: "winston's gone" after both "the node services log with winston" and its retelling
 * "since we're a winston shop, logs go through winston transports" ends both.
 */
export function alsoReplaced<T extends { text: string }>(options: { text: string; memories: readonly T[]; primary: T }): T[] {
  const { text, memories, primary } = options;
  const named = replacedNames(text).filter((n) => mentions(headClause(primary.text), n));
  if (named.length === 0) return [];
  const own = subjectWords(text);
  return memories.filter((m) => {
    if (m === primary || !named.some((n) => mentions(headClause(m.text), n))) return false;
    const theirs = subjectWords(m.text);
    return [...own].some((w) => !theirs.has(w));
  });
}

/**
 * The current memory an offline change statement replaces, or undefined. `memories` are current
 * memories of the candidate's scope stated before it, newest first.
 */
export function replacedMemory<T extends { text: string }>(options: { text: string; memories: readonly T[] }): T | undefined {
  const { text, memories } = options;
  const named = replacedNames(text);
  // "filmin lo he cancelado también": "too" says a second thing was dropped, which still ends its memory.
  if ((isAdditive(text) && named.length === 0) || !marksChange(text)) return undefined;
  // The words of the clauses that carry the change: "standup moved to 10:15, so the parents can do
  // school drop-off" is about standup, not school.
  const clauses = text
    .split(
      /[,;:()]\s*|\s+[—–-]\s+|\s+(?:so|because|since|but|and then|which|as|pero|porque|pq|xq|as[ií] que|entonces|ya que|aunque)\s+|\s+and\s+(?=(?:i|we|they|he|she|the|my|our)\b)/i,
    )
    .filter((c) => marksChange(c));
  const own = subjectWords(clauses.length > 0 ? clauses.join(' ') : text);
  // A memory that already says everything the statement says is the same fact, not a change.
  const novelTo = (m: T) => {
    const theirs = subjectWords(m.text);
    return [...own].filter((w) => !theirs.has(w)).length;
  };
  if (named.length > 0) {
    // Where a memory says what it is about: its first clause, or all of it when it was itself a change
    // ("pixel 6 died, testing is on a pixel 7a now" is what "instead of the 7a" ends). Failing that,
    // the one memory naming it at all ("feature branches come off develop" for "we killed develop").
    const about = (m: T) => (marksChange(headClause(m.text)) ? m.text : headClause(m.text));
    const onlyNaming = () => {
      const naming = memories.filter((m) => named.some((n) => !WHEN_WORD.test(n) && mentions(m.text, n)));
      return naming.length === 1 ? naming[0] : undefined;
    };
    const hit = memories.find((m) => named.some((n) => mentions(about(m), n))) ?? onlyNaming();
    if (hit) return novelTo(hit) > 0 || !alreadyDropped(named, hit.text) ? hit : undefined;
    // What was dropped is no memory's subject: a memory naming it in passing is not the one replaced.
    for (const n of named) for (const w of subjectWords(n)) own.delete(w);
  }
  // The same subject around another value: most shared content words, at least two or half of the smaller.
  const scored = memories
    .map((m) => {
      const theirs = subjectWords(m.text);
      const shared = [...own].filter((w) => theirs.has(w));
      return { m, shared, score: shared.length / Math.max(1, Math.min(own.size, theirs.size)) };
    })
    .filter((x) => x.shared.length > 0 && novelTo(x.m) > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  const beside = { text, own, memories: memories.filter((m) => novelTo(m) > 0) };
  if (!best) return byOldValueBeside(beside);
  // Two shared words name the subject; one word (however short the memory) must pass the checks below.
  if (best.shared.length >= 2) return best.m;
  // One shared word is enough when the statement says outright that it moved or changed and no
  // other current memory shares it: "standup moved to 10:15" and the one memory about standup.
  // Of several memories sharing one word each, the statement is about the word it names first
  // ("migramos payments-service a gradle con kotlin dsl" is about payments-service, not kotlin).
  const folded = foldEs(text);
  const at = (x: (typeof scored)[number]) => folded.indexOf(x.shared[0]!);
  const first = scored.reduce((a, b) => (at(b) >= 0 && (at(a) < 0 || at(b) < at(a)) ? b : a), best);
  const [word] = first.shared;
  // A day or a time of day is shared by too many unrelated routines to name the subject alone.
  if (WHEN_WORD.test(word!)) return undefined;
  if (
    (STRONG_CHANGE.test(text) || STRONG_CHANGE_ES.test(folded) || spanishChangeVerb(text)) &&
    !scored.some((x) => x !== first && x.shared.includes(word!))
  )
    return first.m;
  return byOldValueBeside(beside);
}

/**
 * "me he pasado a neovim, intellij me comía 8 gigas", "moví el backend al 3001 xq el 8080 me chocaba":
 * the old value is named beside the change, in a clause of its own. When the change's own words find
 * no single memory, a word of the rest that only one memory's first clause names points at it.
 */
function byOldValueBeside<T extends { text: string }>(options: { text: string; own: Set<string>; memories: readonly T[] }): T | undefined {
  const { text, own, memories } = options;
  if (!STRONG_CHANGE.test(text) && !STRONG_CHANGE_ES.test(foldEs(text)) && !spanishChangeVerb(text)) return undefined;
  const heads = memories.map((m) => ({ m, words: subjectWords(headClause(m.text)) }));
  const pointed = new Set<T>();
  // After a colon comes the reason for a choice ("Telegraf instead of a custom bridge: it already
  // speaks MQTT"), which names what the choice works with, not the value it replaced.
  for (const w of subjectWords(text.replace(/:\s[\s\S]*$/, ''))) {
    if (own.has(w) || WHEN_WORD.test(w)) continue;
    const naming = heads.filter((h) => h.words.has(w));
    if (naming.length === 1) pointed.add(naming[0]!.m);
  }
  return pointed.size === 1 ? [...pointed][0] : undefined;
}

/**
 * A statement naming what was dropped says nothing new beside the memory it names ("no more sentry"
 * after "errors go to Sentry", "valen dejó natación" after "valen hace natación los sábados", "carmen
 * ya no es mi jefa"): it is still news, unless the memory itself says the name was dropped or set it
 * against something ("prefers tabs over spaces" before "tabs instead of spaces").
 */
function alreadyDropped(named: string[], memory: string): boolean {
  const dropped = new Set(named.flatMap((n) => [...subjectWords(n)]));
  if (replacedNames(memory).some((n) => [...subjectWords(n)].some((w) => dropped.has(w)))) return true;
  const folded = foldEs(memory);
  return [...dropped].some((w) =>
    new RegExp(
      String.raw`(?<![\p{L}])(?:over|not|never|instead of|rather than|en vez de|en lugar de|nada de|ni|sin)\s+(?:[\p{L}\p{N}-]+\s+)?${escapeRe(w)}`,
      'u',
    ).test(folded),
  );
}

const WHEN_WORD =
  /^(?:mon|tues?|wednes|thurs|fri|satur|sun)days?$|^(?:morning|evening|night|afternoon|weekend|week|day|month|year|fortnight)s?$|^(?:lunes|martes|miercoles|jueves|viernes|sabados?|domingos?|manana|tarde|noche|finde|semana|mes|mese|meses|anos?|dias?|quincenas?)$/;

const STRONG_CHANGE =
  /\bnew\s+(?:[\w-]+\s+)?(?:schedule|plan|routine|rule|policy|setup|address|time|slot|days?)s?\b|\b(?:moved|changed|switched|switching|shifted|pushed|swapped|replaced|traded|migrated|migrating|bumped|upgraded|ported|slipped|hired|now|anymore|no longer|no more|instead|off to|gone)\b/i;

/** Below the near-duplicate threshold, the cosine at which a paraphrase with shared words is the same fact. */
const RETELLING_SIMILARITY = 0.8;
/** When the speaker says it is a repetition ("as I said", restatement-markers.ts), closeness counts from here. */
const MARKED_RETELLING_SIMILARITY = 0.5;
/** A plain statement no trigger phrase introduced ("calls between our services go over gRPC"). */
const PLAIN_RETELLING_SIMILARITY = 0.7;

/**
 * Offline, a statement that retells a stored memory in other words ("we use dbmate for migrations,
 * they're in db/migrations" after "db migrations are run with dbmate, files in db/migrations"):
 * close in meaning, two content words shared, no other number, name or negation, and nothing that
 * says it changed or adds a second thing. `marked`: the speaker said it was a repetition, which vectors
 * cannot tell from a second fact on the same topic, so looser closeness and one shared word suffice,
 * and only numbers with none in common say it is another fact (a retelling changes names and wording:
 * "2-space indentation, no tabs" → "our style is 2 spaces, never tabs"; 6380 → 6381 is news).
 * `plain`: no trigger phrase introduced it, and plain facts are often told again: a little less
 * closeness, still two shared words.
 */
export function isRetelling(
  text: string,
  stored: { record: { text: string }; similarity?: number | undefined },
  options: { marked?: boolean; plain?: boolean } = {},
): boolean {
  const marked = options.marked === true;
  const { similarity } = stored;
  const least = marked ? MARKED_RETELLING_SIMILARITY : options.plain ? PLAIN_RETELLING_SIMILARITY : RETELLING_SIMILARITY;
  if (similarity === undefined ? !marked : similarity < least) return false;
  if (marksChange(text) || isAdditive(text)) return false;
  if (marked ? otherNumbers(text, stored.record.text) : statesDifferentFacts(text, stored.record.text)) return false;
  const theirs = subjectWords(stored.record.text);
  return [...subjectWords(text)].filter((w) => theirs.has(w)).length >= (marked ? 1 : 2);
}

/** Both say numbers and none of them is shared. */
function otherNumbers(a: string, b: string): boolean {
  const numbers = (t: string) => new Set(t.match(/\d+/g) ?? []);
  const x = numbers(a);
  const y = numbers(b);
  return x.size > 0 && y.size > 0 && ![...x].some((n) => y.has(n));
}
