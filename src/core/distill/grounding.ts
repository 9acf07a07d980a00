import type { L0Record } from '../../spec/conversation.js';
import { fold } from './spanish.js';
import { changedLater, correctedValue } from './corrected-values.js';
import { PROFANITY_WORDS, contentWords, word } from './grounding-words.js';
import { unstatedDetail } from './unstated-details.js';

/**
 * Evidence checks for a memory an LLM extractor wrote, against the conversation it was written from.
 * Mistakes extractors make that cannot be seen in the memory's text, only next to the conversation:
 * - a one-off request written as a standing rule: "write this one in German" becomes "Ji-woo always
 *   wants emails in German"; "skip the type hints this time" becomes "prefers no type hints";
 * - a value the user corrected later in the same conversation: "dev db is on 5433 ... sorry, 5434"
 *   kept as 5433, or "we build it with stack ... actually cabal, not stack" kept as stack
 *   (corrected-values.ts);
 * - what only the agent said, taken for a memory: the gate holds it to the standard of agent prose
 *   (`citesOnlyAgent`, admission.ts);
 * - an exact detail (a port, a version, a count) the conversation never states (unstated-details.ts).
 * Whether a thing lasts is read in the user's words only: the agent's are not what the user said.
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

/** A memory that makes a standing rule or habit of something: "always", "never", "every", "any". */
const MEMORY_UNIVERSAL = [
  word(String.raw`always|never|every(?:thing|one|body)?|any(?:thing|one)?|all|nothing|whenever|each time|at all times`),
  word(String.raw`siempre|nunca|jamas|cualquier(?:a)?|ningun(?:a|o)?|cada vez`),
  /总是|从不|从来不|永远|一律|每次|任何|始终|一直都/u,
];

/**
 * What in a user's words says a thing lasts beyond this task: a quantifier of the same kind, a
 * standing opening, a habit, a dislike, a scolding ("ffs", "how many times": the mistake is not to
 * recur). Wide on purpose: a memory is only refused when the user said nothing of the kind.
 */
const USER_STANDING = [
  word(
    String.raw`always|never|ever|every(?:thing|one|body|where)?|any(?:thing|one|where)?|all|each|nothing|whenever|each time|from now on|going forward|from here on|in (?:the )?future|next time|by default|in general|generally|usually|normally|typically|mostly|as a rule|anymore|any more|no more|for good|rule|policy|conventions?|prefer(?:s|red|ence)?|hates?|hated|should(?:n'?t)?|must(?:n'?t)?|if|when|unless|otherwise|can'?t stand|(?:i|we)(?:'m| am| are|'re)? (?:don'?t|do not|never|won'?t|will not)|(?:don'?t|do not) ever|${PROFANITY_WORDS}|ffs|i told you|how many times`,
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

/** The user scoping a request to this task: "this time", "for this one", "temp" (not "temp files"), "para este", "这次". */
const THIS_TASK_ONLY = [
  word(
    String.raw`this time|this once|just this|for this one|this one|for now|for today|(?:temp|temporary)(?! (?:files?|dirs?|director(?:y|ies)|folders?|tables?|data)(?![\p{L}]))|temporarily|(?:for )?the rest of (?:this|the) session|in this session|for (?:testing|debugging)`,
  ),
  word(
    String.raw`esta vez|por esta vez|para este|para esta|por ahora|por hoy|solo este|solo esta|temporal(?:mente)?|en esta sesion|para probar`,
  ),
  /这次|这一次|这回|这封|这篇|这个先|暂时|临时/u,
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
  word(
    String.raw`siempre|nunca|jamas|de ahora en adelante|a partir de ahora|desde ahora|por defecto|cada vez|ya no|regla|tod[oa]s?|cualquier(?:a)?`,
  ),
  /以后|今后|从现在起|从现在开始|默认|总是|从不|从来|永远|每次|一直|不要再|再也|任何|所有|全部|一律|规定|约定|规范/u,
];

const says =
  (patterns: RegExp[]) =>
  (message: string): boolean => {
    const text = fold(message)
      .replace(/[\u2018\u2019]/g, "'")
      .replace(NOT_UNIVERSAL, ' ');
    return patterns.some((re) => re.test(text));
  };
const saysLasting = says(USER_LASTING);
const saysStanding = says(USER_STANDING);

/**
 * The user messages the memory is judged against: those it cites, else (no usable citation) those
 * sharing a word with it. A memory that cites only the agent's messages has no user source: it is
 * not judged a one-off, and the gate holds it to the standard of agent prose instead.
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

/** Why the conversation does not bear the memory out, or undefined when it does (or cannot tell). */
export function evidenceRejection(memory: string, evidence: MemoryEvidence): { detail: string } | undefined {
  const sources = userSources(memory, evidence);
  if (overgeneralised(memory, sources)) return { detail: 'one-off made a rule' };
  // What only the agent said can be taken back by the user too ("its Release-Beta not beta-release").
  const cited = evidence.messages.filter((m) => evidence.cited.includes(m.id));
  const corrected = correctedValue(memory, sources.length > 0 ? sources : cited, evidence);
  if (corrected !== undefined) return { detail: `corrected later: ${corrected}` };
  const changed = changedLater(memory, cited, evidence);
  if (changed !== undefined) return { detail: `corrected later: changed in the session: ${changed}` };
  const said = evidence.messages.map((m) => m.text);
  const unstated = said.length > 0 ? unstatedDetail(memory, said) : undefined;
  if (unstated !== undefined) return { detail: `a detail the conversation never states: ${unstated}` };
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
