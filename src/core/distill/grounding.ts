import type { L0Record } from '../../spec/conversation.js';
import { fold } from './spanish.js';

/**
 * Evidence checks for a memory an LLM extractor wrote, against the conversation it was written from.
 * Two mistakes extractors make cannot be seen in the memory's text, only next to what the user said:
 * - a one-off request written as a standing rule: "write this one in German" becomes "Ji-woo always
 *   wants emails in German"; "skip the explanation" becomes "never wants explanations";
 * - a value the user corrected later in the same conversation: "dev db is on 5433 ... sorry, 5434"
 *   kept as 5433, or "we build it with stack ... actually cabal, not stack" kept as stack.
 * A memory is only judged against user messages: the agent's words are not what the user said.
 */
export interface EvidenceMessage {
  id: string;
  role: string;
  text: string;
}

export interface MemoryEvidence {
  /** The conversation the memory was written from (one session's messages of the batch), in order. */
  messages: EvidenceMessage[];
  /** The ids the extractor cited; may be empty, name agent messages, or be imprecise. */
  cited: string[];
}

const word = (source: string, flags = 'iu'): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, flags);

/** A memory that makes a standing rule or habit of something: "always", "never", "every", "any". */
const MEMORY_UNIVERSAL = [
  word(String.raw`always|never|every(?:thing|one|body)?|any(?:thing|one)?|all|nothing|whenever|each time|at all times`),
  word(String.raw`siempre|nunca|jamas|cualquier(?:a)?|ningun(?:a|o)?|cada vez`),
  /总是|从不|从来不|永远|一律|每次|任何|始终|一直都/u,
];

/**
 * What in a user's words says a thing lasts beyond this task: a quantifier of the same kind, a
 * standing opening, a habit, a dislike. Wide on purpose: a memory is only refused when the user
 * said nothing of the kind.
 */
const USER_STANDING = [
  word(
    String.raw`always|never|ever|every(?:thing|one|body|where)?|any(?:thing|one|where)?|all|each|nothing|whenever|each time|from now on|going forward|from here on|in (?:the )?future|next time|by default|in general|generally|usually|normally|typically|mostly|as a rule|anymore|any more|no more|for good|rule|policy|conventions?|prefer(?:s|red|ence)?|hates?|hated|should(?:n'?t)?|must(?:n'?t)?|if|when|unless|otherwise|can'?t stand|(?:i|we)(?:'m| am| are|'re)? (?:don'?t|do not|never|won'?t|will not)|(?:don'?t|do not) ever`,
  ),
  word(
    String.raw`siempre|nunca|jamas|de ahora en adelante|a partir de ahora|desde ahora|por defecto|en general|normalmente|por lo general|casi siempre|cada vez|ya no|odio|odia|prefiero|preferimos|me gusta|nos gusta|no (?:uso|usamos|me gusta|quiero)|regla|deberia|debe|hay que|si|cuando|a menos que|tod[oa]s?|cualquier(?:a)?|en todos lados|en todas partes`,
  ),
  /以后|今后|从现在起|从现在开始|默认|一般|通常|平时|总是|从不|从来|永远|每次|一直|不要再|再也|任何|所有|全部|一律|统一|规定|约定|规范|惯例|习惯|喜欢|讨厌|应该|必须|如果|的时候|(?:我们|我|咱们)[^，。,.！!？?]{0,6}(?:不|没)(?:用|上|要|做|写|加|碰|引)/u,
];

/** A memory that says what someone wants or likes; made of a request scoped to this task, it generalises too. */
const MEMORY_PREFERENCE = [
  word(String.raw`wants?|prefers?|likes?|loves?|hates?|dislikes?|(?:does not|doesn'?t) (?:want|like)`),
  word(String.raw`quiere|prefiere|le gusta|le encanta|odia|no quiere`),
  /希望|喜欢|偏好|倾向|讨厌|不想|要求/u,
];

/** The user scoping a request to this task: "this time", "for this one", "para este", "这次". */
const THIS_TASK_ONLY = [
  word(String.raw`this time|this once|just this|for this one|this one|for now|for today`),
  word(String.raw`esta vez|por esta vez|para este|para esta|por ahora|por hoy|solo este|solo esta`),
  /这次|这一次|这回|这封|这篇|这个先|暂时/u,
];

function isUniversal(memory: string): boolean {
  const text = fold(memory);
  return MEMORY_UNIVERSAL.some((re) => re.test(text));
}

/** "not formal at all", "all good": an intensifier or a reply, not a claim about every case. */
const NOT_UNIVERSAL = /(?<![\p{L}])(?:at all|all (?:good|right|set|done|fine|ok|okay|clear|yours))(?![\p{L}])/gu;

/** The part of USER_STANDING that says outright a thing lasts: a quantifier or a standing opening. */
const USER_LASTING = [
  word(
    String.raw`always|never|ever|every(?:thing|one|body|where)?|any(?:thing|one|where)?|all|each|whenever|each time|from now on|going forward|from here on|in (?:the )?future|next time|by default|as a rule|anymore|any more|no more|for good|rule|policy|conventions?`,
  ),
  word(String.raw`siempre|nunca|jamas|de ahora en adelante|a partir de ahora|desde ahora|por defecto|cada vez|ya no|regla|tod[oa]s?|cualquier(?:a)?`),
  /以后|今后|从现在起|从现在开始|默认|总是|从不|从来|永远|每次|一直|不要再|再也|任何|所有|全部|一律|规定|约定|规范/u,
];

function saysLasting(message: string): boolean {
  const text = fold(message)
    .replace(/[\u2018\u2019]/g, "'")
    .replace(NOT_UNIVERSAL, ' ');
  return USER_LASTING.some((re) => re.test(text));
}

function saysStanding(message: string): boolean {
  const text = fold(message)
    .replace(/[\u2018\u2019]/g, "'")
    .replace(NOT_UNIVERSAL, ' ');
  return USER_STANDING.some((re) => re.test(text));
}

/** Content words (3+ letters, or any CJK run, or a number) of a text, accent-folded. */
function contentWords(text: string): Set<string> {
  const words = fold(text).match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*[\p{L}\p{N}]|\p{N}/gu) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)));
}

const STOP = new Set(
  'the and for with that this these those from into user users their they them has have had was were are not but you your our his her its she him who what when where which will would should could can also just then than very more most some such only about over after before because while there here still each been being does did done use uses used using wants want likes like prefers prefer el la los las que del por para con una uno unos unas como pero mas sus suyo usuario usuaria tiene tienen'.split(
    ' ',
  ),
);

/**
 * The user messages the memory is judged against: those it cites, else (no usable citation) those
 * sharing a word with it. A memory that cites only the agent's messages (a lesson the agent stated)
 * has no user source: what the user did not say does not count against it.
 */
function userSources(memory: string, evidence: MemoryEvidence): EvidenceMessage[] {
  const cited = evidence.messages.filter((m) => evidence.cited.includes(m.id));
  if (cited.length > 0) return cited.filter((m) => m.role === 'user');
  const words = contentWords(memory);
  return evidence.messages.filter((m) => m.role === 'user' && [...contentWords(m.text)].some((w) => words.has(w)));
}

/**
 * A standing rule the user never stated: the memory generalises (a quantifier, or a preference drawn
 * from a request the user scoped to this task), and no source says anything lasts.
 */
function overgeneralised(memory: string, sources: EvidenceMessage[]): boolean {
  if (sources.length === 0) return false;
  const scoped = sources.some((m) => THIS_TASK_ONLY.some((re) => re.test(fold(m.text))));
  if (isUniversal(memory)) {
    // "no comments in the sql for this one, the reviewer hates them": scoped to this task, only a
    // word that says it lasts (always, from now on, every ...) makes "never" the user's.
    return scoped ? !sources.some((m) => saysLasting(m.text)) : !sources.some((m) => saysStanding(m.text));
  }
  if (sources.some((m) => saysStanding(m.text))) return false;
  return scoped && MEMORY_PREFERENCE.some((re) => re.test(fold(memory)));
}

// ------------------------------------------------------------------ corrected values

const CORRECTION = [
  word(
    String.raw`actually|sorry|correction|i meant|i mean|my bad|scratch that|wait|hang on|hold on|oops|typo|misspoke|mis-said|misread|no no|nvm|never mind|make that|rather`,
  ),
  word(String.raw`perdon|en realidad|me equivoque|quise decir|corrijo|correccion|mejor dicho|error mio|digo|espera|no no`),
  /不对|更正|说错|其实是|我是说|应该是|搞错|写错/u,
];

/** "cabal, not stack", "no es stack sino cabal", "不是stack": the value the user takes back. */
const TAKEN_BACK = [
  /(?<![\p{L}\p{N}])(?:not|no|isn'?t|wasn'?t|instead of)\s+(?:the\s+|a\s+|an\s+)?([\p{L}\p{N}][\p{L}\p{N}._-]*)/giu,
  /(?<![\p{L}\p{N}])(?:no es|no era|no son|en vez de|en lugar de)\s+(?:el\s+|la\s+|los\s+|las\s+|un\s+|una\s+)?([\p{L}\p{N}][\p{L}\p{N}._-]*)/giu,
  /不是([\p{L}\p{N}]+)/gu,
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
  const said = new Set(sources.flatMap((s) => [...contentWords(s.text)]));
  const values = [...memoryWords].filter((w) => said.has(w));
  for (const clause of folded.split(/[.,;!?\n]\s|\b(?:but|and|pero|y)\b/u)) {
    if (!GONE.test(clause)) continue;
    for (const w of clause.match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*[\p{L}\p{N}]/gu) ?? []) {
      const value = values.find((v) => names(w, v));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function isCorrection(message: string): boolean {
  const text = fold(message);
  return CORRECTION.some((re) => re.test(text));
}

/**
 * The value a correction of the user's replaced, still in the memory; undefined when none. Only a
 * correction after every message the memory cites counts: a memory that cites it drew on it.
 */
function correctedValue(memory: string, sources: EvidenceMessage[], evidence: MemoryEvidence): string | undefined {
  if (sources.length === 0) return undefined;
  const users = evidence.messages.filter((m) => m.role === 'user');
  const last = Math.max(...sources.map((s) => users.indexOf(s)));
  const memoryWords = contentWords(memory);
  const memoryNumbers = numbers(memory);
  const sourceNumbers = new Set(sources.flatMap((s) => [...numbers(s.text)]));
  // What the memory took from its sources: a value taken back later must be one of these.
  const said = new Set([...sources.flatMap((s) => [...contentWords(s.text)]), ...sourceNumbers]);
  for (const [i, correction] of users.entries()) {
    if (i <= last || !isCorrection(correction.text)) continue;
    const folded = fold(correction.text);
    for (const re of TAKEN_BACK) {
      for (const match of folded.matchAll(re)) {
        const value = match[1]!.replace(/[._-]+$/, '');
        if (said.has(value) && (memoryWords.has(value) || memoryNumbers.has(value)) && !fold(memory).includes(`not ${value}`)) return value;
      }
    }
    // "pkumar is my old teammate", "develop ya no existe", "ese jest.config es viejo": the correction
    // names a word of the memory, said in its sources, and calls it old, wrong or gone.
    const dropped = droppedWord(folded, memoryWords, sources);
    if (dropped !== undefined) return dropped;
    // "5433 ... sorry, 5434. 5433 is the old container", "year 4 ... its year 3 actually": the
    // correction gives a number the sources did not, the memory keeps the sources' one instead, and
    // the correction names that number again or says the new one of the same thing (a word beside it).
    const fresh = [...numbers(correction.text)].filter((n) => !sourceNumbers.has(n));
    if (fresh.length === 0 || fresh.some((n) => memoryNumbers.has(n))) continue;
    const sameTopic = i === last + 1 || [...contentWords(correction.text)].some((w) => memoryWords.has(w));
    for (const stale of [...memoryNumbers].filter((n) => sourceNumbers.has(n))) {
      if (sameTopic && numbers(correction.text).has(stale)) return stale;
      const before = sources.flatMap((s) => neighbours(s.text, stale));
      if (fresh.some((n) => neighbours(correction.text, n).some((w) => before.some((b) => sharesStem(w, b))))) return stale;
    }
  }
  return undefined;
}

/** Why the conversation does not bear the memory out, or undefined when it does (or cannot tell). */
export function evidenceRejection(memory: string, evidence: MemoryEvidence): { detail: string } | undefined {
  const sources = userSources(memory, evidence);
  if (overgeneralised(memory, sources)) return { detail: 'one-off made a rule' };
  const corrected = correctedValue(memory, sources, evidence);
  if (corrected !== undefined) return { detail: `corrected later: ${corrected}` };
  return undefined;
}

/**
 * The memory cites messages and every one is the agent's: only the agent said it. Such a memory is
 * held to what the gate keeps of agent prose (a rule, a lesson, a standing fact), not taken as what
 * the user told.
 */
export function citesOnlyAgent(evidence: MemoryEvidence): boolean {
  const cited = evidence.messages.filter((m) => evidence.cited.includes(m.id));
  return cited.length > 0 && cited.every((m) => m.role === 'assistant');
}

/** The evidence for a candidate: its own session's messages of the batch, and the ids the model cited. */
export function evidenceFor(
  candidate: { sessionKey: string; sourceMessageIds: string[]; uncited?: true },
  batch: L0Record[],
): MemoryEvidence {
  return {
    messages: batch.filter((m) => m.sessionKey === candidate.sessionKey).map((m) => ({ id: m.id, role: m.role, text: m.content })),
    cited: candidate.uncited ? [] : candidate.sourceMessageIds,
  };
}
