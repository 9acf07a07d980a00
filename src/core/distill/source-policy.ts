import type { AdmissionReason, AdmissionSource } from './admission.js';
import { hasDurableEvidence, hasLesson, hasUserEvidence, isTeamDecision } from './durable-evidence.js';
import { hasContentEvidence, hasCjk, hasRuleMarker, isShort, withoutLead } from './signals.js';
import { SUMMARY_DECISION, SUMMARY_ERROR_FIX } from './rule-patterns.js';
import { looksSpanish } from './spanish.js';
import { PROFANITY_WORDS, word } from './grounding-words.js';
import { isPersonStatement } from './summary-voice.js';
import { hasNoFiniteVerb, isVerbless } from './structure-signals.js';
import { isPastWorkEvent } from './past-events.js';

/**
 * What the gate asks of a candidate depending on where it comes from. User messages mostly ask for
 * things and react to the work; assistant prose and summaries mostly narrate it; an LLM extractor
 * writes standalone third-person statements. The families below are the shapes each source
 * produces that look like statements but only make sense next to the conversation.
 */

/** The agent agreeing before it restates a correction ("You're absolutely right - X"): X is the claim. */
const AGREEMENT =
  /^(?:you(?:['’]re| are) (?:absolutely |completely |totally |quite |so |entirely )?right|good (?:catch|point|call)|fair point)\s*[-–—,:!.]+\s*/i;

export function withoutAgreement(text: string): string {
  return withoutLead(text, AGREEMENT);
}

/** "I can see that X", "It looks like X": evidence preambles; the claim after them is what counts. */
const PREAMBLE =
  /^(?:(?:ok(?:ay)?|so|good|great|perfect|interesting|alright|right)[,!.]?\s+)*(?:(?:based on|according to|judging by|from) (?:your|the|my) [^,]{1,40},\s*|i can see (?:that )?|i see (?:that )?|i found (?:that )?|i noticed (?:that )?|i've found (?:that )?|it (?:looks|seems) like |looks like |it seems (?:that )?|note(?: that)?:?\s+|turns out,?\s+)/i;

export function stripPreamble(text: string): string {
  return withoutLead(withoutAgreement(text), PREAMBLE);
}

const PROFANITY = word(PROFANITY_WORDS);
const STRONG_RULE =
  /\b(?:always|never|must|from now on|no longer|don'?t|do not|not allowed|forbidden)\b|\bno\s+\w+(?:\s+\w+)?!|\buse\b[^.]{1,40}\bnot?\b/i;
/** "i think X is broken", "I am not seeing Y": a hedged report on the current state of the work. */
const HEDGED =
  /^(?:(?:ok(?:ay)?|so|alright|hm+|well|actually|yeah|also)[,.]?\s*)*(?:i think|i suspect|i guess|i believe|i suppose|i don'?t (?:think|tink|understand|know)|i'm not sure|i am not sure|i am not seeing|i'm not seeing|i don'?t see|i see|i noticed|i removed|i undid|i selected|i changed|i added|i tried|it looks like|looks like|it seems|seems like|apparently|some differences)\b/i;
/** "we need to fix X", "we still need to port Y": work to do now. */
const WORK_TO_DO =
  /^(?:(?:ok(?:ay)?|so|alright|now|also|hey|hi|yo)[,.]?\s*)*(?:we|i)\s+(?:still\s+|also\s+|now\s+)?(?:need|have|got)\s+to\b|^(?:(?:ok(?:ay)?|so|alright|now|also|hey|hi|yo)[,.]?\s*)*(?:we|i)\s+need\s+(?:a|an|the|some)\b/i;
/** A reply that only makes sense after the question it answers ("yes, our current machine."). */
const ANSWER =
  /^(?:yes|yeah|yep|no|nope|nah|correct|right|exactly|not quite|that's not it)\b(?:[,.!]|\s*$|\s+(?:i|we|it|that|this|the|you|just|thanks|thank)\b)/i;
/** In Spanish "no" opens a reply whatever follows ("no funciona", "no entiendo nada"). */
const ANSWER_ES = /^(?:si|sí|no|nop|nel|claro|exacto|correcto)\b/i;
/** No subject: the sentence continues one before it ("should be 8ABeB7", "Need to restructure ..."). */
const SUBJECTLESS = /^(?:also\s+)?(?:should|shall|must|needs? to|has to|have to|could|would|can|might|will|is|are|was|were)\b/i;
/** A sentence that continues the previous one or points back at it. */
const CONTINUATION = /^(?:but|and|so|then|also|or|which|though|plus|however|instead|otherwise|that said|anyway)\b/i;
const DEICTIC_START =
  /^(?:this|that|these|those|it|they|both|either|neither|here|there's|there are|the (?:issue|problem|error|fix|result|plan|instruction|difference|change|same))\b/i;
/** "This repo pins Node 20": the place a fact belongs to, not a pointer into the conversation. */
const PLACE_START =
  /^this (?:project|repo|repository|codebase|app|application|service|cluster|machine|server|workspace|team|company|monorepo)\b/i;
const LESSON_STRONG =
  /\b(?:known (?:issue|bug|limitation)|root cause|doesn'?t support|does not support|not supported|because|means|culprit)\b/i;
/**
 * "The root cause is the missing X, not Y", "The root cause is probably the power supply, but ...":
 * this bug's diagnosis, told against the other suspect or as a guess. A lesson tells the mechanism
 * ("The root cause was that `split()` on an empty string returns ...").
 */
const DIAGNOSIS =
  /^(?:so,?\s+)?the (?:real |actual |likely )?root cause (?:here )?(?:is|was)\s+(?:(?:probably|likely|possibly|maybe|almost certainly)\b|(?!that\b)[^.;]{3,80},\s*(?:not|nothing|and not|rather than)\b)/i;
/**
 * The agent's guess ("so it's probably the worker", "the apply may have completed some resources",
 * "it seems to happen because ..."): what it supposes is no fact until the work confirms it. A
 * rule said with a hedge ("never log payloads, they may hold emails") stays a rule.
 */
const GUESS =
  /\b(?:probably|(?:most |more |very |quite )?likely|unlikely|possibly|perhaps|maybe|presumably|i suspect|i guess|i think|i believe|my (?:guess|hunch|bet)|it seems|seem(?:s|ed)? to|appear(?:s|ed)? to|suggests? (?:that|it'?s|this is)|might|may (?:be|have|also|not|explain|need|cause|just)|could (?:be|have|explain|mean|also|just))\b/i;
/**
 * A rule said with a hedge stays a rule ("Never log payloads, they may hold emails"). A plain "don't"
 * in a description does not make one: "the grays don't render, which suggests VS Code might remap them".
 */
const GUESS_IN_RULE =
  /\b(?:always|never(?! ?mind)|must(?:n't)?|from now on|going forward|by default|as a rule|make sure)\b|^(?:don'?t|do not|avoid)\b/i;
/** An assistant's expectation about the fix it just made ("should work now", "should pick up"). */
const EXPECTATION =
  /\bshould (?:now |also |still |then )?(?:work|be working|pick up|see|render|detect|fix|resolve|help|appear|show|load|be fine|be good|match|pass)\b/i;
/** "Initials: "JN" (instead of hardcoded "CN")": a label and a value cut from a list. */
const LABEL = /^([^:：]{1,30})[:：]\s+(.+)$/;
/**
 * A label that says what kind of lasting thing follows: summaries file decisions, constraints and
 * causes under such labels ("Decision: ...", "Root cause: ...", "User preference: ..."). The value
 * is then the statement, verb or not; a label about the work in progress ("Next step", "Status")
 * is not one of these.
 */
const DURABLE_LABEL =
  /^(?:(?:key|main|important|final|user|user's|team|project|hard|known)\s+)?(?:decisions?|decided|constraints?|rules?|conventions?|polic(?:y|ies)|preferences?|prefers|requirements?|lessons?(?: learned)?|root cause|cause|gotchas?|caveats?|limitations?|insights?|takeaways?|learnings?|workaround|invariants?|defaults?|standards?|guidelines?|important|critical)$/i;
/** A label naming a lasting attribute of the user's setup ("Tech stack: ...", "Environment: ..."). */
const SETUP_LABEL =
  /^(?:(?:the |user's |project |target |production |dev(?:elopment)? |local )?(?:tech(?:nology)? stack|stack|environment|platform|os|operating system|language|framework|database|hosting|deployment|package manager|editor|shell|tooling|infrastructure|architecture|repository|repo|monorepo|runtime|hardware|machine|setup))$/i;
/** "Must keep X", "Should never Y": a constraint bullet, subjectless by style; it needs a standing word. */
const MODAL_RULE =
  /^(?:must|should|shall)(?:n't| not)?\s+(?:always|never|not|only)\b|^(?:must|should)\b[^.]{0,80}\b(?:instead of|rather than|at all times|in every|for every|for all|in all)\b/i;
export function durableLabelValue(text: string): string | undefined {
  const m = LABEL.exec(text.trim());
  if (!m || !(DURABLE_LABEL.test(m[1]!.trim()) || SETUP_LABEL.test(m[1]!.trim()))) return undefined;
  const value = m[2]!.trim();
  return /[A-Za-z\u3400-\u9fff]/.test(value) && value.split(/\s+/).length >= 3 ? value : undefined;
}
/** Short Title Case line with no sentence end: a heading that lost its markdown. */
function isHeadingLike(t: string): boolean {
  if (/[.!?。！？]$/.test(t)) return false;
  const words = t.split(/\s+/).filter((w) => /[A-Za-z]/.test(w));
  if (words.length === 0 || words.length > 6) return false;
  return words.every((w) => /^[^a-z]/.test(w) || /^(?:a|an|the|of|for|and|or|to|in|on|with|by|vs)$/.test(w));
}

/**
 * A glossary line that defines a named component: "Beads (bd) - Git-backed issue tracker used for
 * all task management", "TranscriptRenderer - Pure data transform module converting ...". The name
 * is a proper name (capitalised or CamelCase, an alias in brackets or a second name after a slash
 * allowed), the definition a noun phrase of at least five words. Compaction summaries list the
 * project's parts this way; what a definition must not start with is an action (an imperative,
 * a gerund or a verb: "Moving ...", "add ...", "Mentions ..."), which makes it a task line.
 */
const NAME = String.raw`[A-Z][\w.]*(?:[ -][A-Z][\w.]*){0,2}(?:\s*\([^)]{1,20}\))?`;
const DEFINITION = new RegExp(String.raw`^${NAME}(?:\s*\/\s*${NAME})?\s+[-–—]\s+(\S+)((?:\s+\S+){4,})$`);
const ACTION_START =
  /^(?:\w+ing|\w+ed|\w+[^s]s|add|fix|use|make|run|update|remove|create|move|see|check|read|set|get|show|call|keep|avoid)$/i;

export function isNamedDefinition(text: string): boolean {
  const m = DEFINITION.exec(text.trim().replace(/[.;]$/, ''));
  if (!m) return false;
  const first = m[1]!;
  // A lower-case start continues a sentence or is an imperative ("SubagentLive - add ...").
  return (
    /^[A-Z]/.test(first) &&
    !ACTION_START.test(first.replace(/[^\w-]/g, '')) &&
    !/\b(?:this|that|these|those|now|currently|still|yet)\b/i.test(m[2]!)
  );
}

/** A label over work still open ("Next concrete step: ...", "Pending: ...", "Blocked: ...", "**Next:** ..."). */
const IN_FLIGHT_LABEL =
  /^(?:\*\*)?(?:(?:(?:next|immediate|concrete|current)\s+)*(?:next\s+)?(?:steps?|pending|todo|to do|open (?:questions?|items?|points?)|blocked(?: on)?|status|wip|in progress|follow[- ]ups?)\b[^:]{0,20}|up next|next(?: up)?)(?:\*\*)?:/i;

/** A line filed under a label of work still open: a plan or a state, never a lasting thing. */
export function isInFlightLabel(text: string): boolean {
  return IN_FLIGHT_LABEL.test(text.trim());
}

const STANDING_CREDENTIAL =
  /\b(?:password|passwd|passcode|passphrase|pin(?: code| number)?|api[ -]?key|access key|token|secret|recovery code|backup codes?|2fa code|otp|(?:door|gate|alarm|lockbox|key ?safe|garage|building|entry|safe) code|wi-?fi(?: password| pass| key)?|iban|(?:account|card|sort) (?:number|no\.?))\b[^.\n]{0,30}?(?:\bis\b|\bare\b|=|:)\s*["'`(]?[^\s"'`]*\d[^\s"'`]*/i;

/** What a line under a standing heading still must not be: too short, a continuation, work still open, the session's events. */
function standingLineRejection(t: string): { reason: AdmissionReason; detail?: string } | undefined {
  if (t.split(/\s+/).length < 4) return { reason: 'fragment', detail: 'too little under a standing heading' };
  // A credential with its value, in whatever form the redactor does not know: the heading says "keep", the value says no.
  if (STANDING_CREDENTIAL.test(t)) return { reason: 'secret', detail: 'credential under a standing heading' };
  // A line that goes on from the one before it ("actually it doesn't ...", "otherwise ...").
  if (/^(?:actually|otherwise|however|instead|because|while|even so|that said|anyway)\b/i.test(t))
    return { reason: 'context-dependent', detail: 'continues a line' };
  if (isInFlightLabel(t)) return { reason: 'passing-state', detail: 'open work' };
  if (isPastWorkEvent(t)) return { reason: 'session-event', detail: 'past work event' };
  if (/\bI\s+(?:\w+\s+)?(?:discovered|found|noticed|tried|added|wrote|changed|fixed|ran)\b/.test(t)) return { reason: 'process-narration' };
  return undefined;
}

export function sourceRejection(
  text: string,
  source: AdmissionSource,
  options: { standing?: boolean; modelKept?: boolean } = {},
): { reason: AdmissionReason; detail?: string } | undefined {
  const t = text.trim();
  // Under a heading that files lasting things the heading is the evidence: a bare "label: value" or
  // verbless line stands, but one still has to say something (four words) and point nowhere.
  const standing = options.standing === true && source === 'summary';
  const cjk = hasCjk(t);
  if (source === 'user') {
    if (PROFANITY.test(t) && !STRONG_RULE.test(t) && !/\bshould\b/i.test(t)) return { reason: 'chatter', detail: 'frustration' };
    if (HEDGED.test(t) && !STRONG_RULE.test(t) && !/\bshould\b/i.test(t)) return { reason: 'passing-state', detail: 'hedged observation' };
    if (WORK_TO_DO.test(t) && !STRONG_RULE.test(t)) return { reason: 'task-request', detail: 'work to do' };
    if ((looksSpanish(t) ? ANSWER_ES : ANSWER).test(t) && !STRONG_RULE.test(t)) return { reason: 'context-dependent', detail: 'answer' };
    if (SUBJECTLESS.test(t) && !/^would (?:much |really )?rather\b/i.test(t)) return { reason: 'context-dependent', detail: 'no subject' };
    if (!hasUserEvidence(t) && options.modelKept !== true) return { reason: 'no-content', detail: 'no rule, preference, decision or fact' };
    return undefined;
  }
  // An assistant's exclamation cheers the moment ("Watch the colours update live!", "Safe travels!"); a rule in it is kept.
  if (source === 'assistant' && /[^!=]!+["')]*$/.test(t) && !hasRuleMarker(t)) return { reason: 'chatter', detail: 'exclamation' };
  // "Decision: use X", "Root cause: Y": the label says what kind of lasting thing the value is.
  if (source !== 'llm' && !cjk && durableLabelValue(t) !== undefined) return undefined;
  // An extractor writes sentences whose verbs the short list may not know ("The team deploys ..."),
  // so only very short LLM output is judged verbless.
  if (standing && !cjk) {
    const standingJunk = standingLineRejection(t);
    if (standingJunk) return standingJunk;
  }
  // Under a standing heading a verbless line stands when it is a label and its value ("Kube contexts: a and b").
  if (!cjk && !STRONG_RULE.test(t) && !(standing && LABEL.test(t)) && isVerbless(t, source === 'llm' ? 4 : 8))
    return { reason: 'fragment', detail: 'no verb' };
  if (source === 'llm') return isShort(t) && !hasContentEvidence(t) ? { reason: 'no-content' } : undefined;
  // Assistant prose and compaction summaries.
  if (!cjk) {
    if (isNamedDefinition(t)) return undefined;
    if (isHeadingLike(t)) return { reason: 'fragment', detail: 'heading' };
    const label = LABEL.exec(t);
    // "In VS Code: Check Settings → X (set to 1 to disable contrast adjustment)": a lesson in a list.
    if (!standing && label && hasNoFiniteVerb(label[2]!) && !hasLesson(label[2]!)) return { reason: 'fragment', detail: 'label and value' };
    if (CONTINUATION.test(t) || (SUBJECTLESS.test(t) && !MODAL_RULE.test(t))) return { reason: 'context-dependent' };
    if (DEICTIC_START.test(t) && !PLACE_START.test(t) && !LESSON_STRONG.test(t)) return { reason: 'context-dependent' };
    if (source === 'assistant' && DIAGNOSIS.test(t)) return { reason: 'context-dependent', detail: 'diagnosis' };
    if (GUESS.test(t) && !GUESS_IN_RULE.test(t)) return { reason: 'passing-state', detail: 'guess' };
    if (EXPECTATION.test(t)) return { reason: 'passing-state', detail: 'expectation' };
    if (/^(?:i|we)\b/i.test(t) && !isTeamDecision(t)) return { reason: 'process-narration' };
  }
  // A summary's own voice: what it learned about a person, a choice told with its reason.
  if (
    !standing &&
    !hasDurableEvidence(t) &&
    !(source === 'summary' && (isPersonStatement(t) || SUMMARY_DECISION.test(t) || SUMMARY_ERROR_FIX.test(t)))
  )
    return { reason: 'no-content', detail: 'no rule, lesson or standing fact' };
  return undefined;
}
