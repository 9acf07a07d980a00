import { HOUSEHOLD_SUBJECT_SOURCE, S_VERB_SOURCE, hasCjk, hasSelfDisclosure, weightedLength } from './signals.js';
import { STILL_VALUE } from './english-facts.js';
import { hasImplicitUserStatement } from './english-user.js';
import { DECIDED_BY, DECIDED_OPENING, LIMITATION, NOT_ANYMORE } from './rule-patterns.js';
import { hasSpanishUserEvidence } from './spanish.js';

/**
 * Positive evidence that a sentence holds something that stays true after the task: a rule or
 * preference, a lesson (a cause, a limitation, a condition under which something fails), or a
 * standing fact (a named thing and a present-tense verb of state). Assistant prose and compaction
 * summaries mostly narrate the task ("Updated NavUser.tsx", "The error shows it's blocking the
 * commit"), and user messages mostly ask for things, so the gate asks for one of these there.
 * English and Chinese.
 */
const RULE =
  /\b(?:always|never(?! ?mind)|must(?:n't| not)?|from now on|from here on|by default|prefers?|preferred|don'?t|do not|does not want|avoid|instead of|rather than|convention|policy|required|not allowed|forbidden|only (?:use|accept|allow))\b/i;
const LESSON =
  /\b(?:because|due to|caused by|root cause|turn(?:s|ed) out|the fix (?:is|was)|workaround|known (?:issue|bug|limitation)|means|otherwise|or else|doesn'?t support|does not support|not supported|only (?:accepts?|supports?|has|have|works)|unless|only (?:if|when|after|once)|only [a-z]{3,}(?<![sui])s\b|culprit|cannot|can'?t|is blocked by|was blocked by|failed (?:due to|because)|fails when|breaks when|happens when|returns?\b[^.]{1,60}\bnot\b|set (?:\w+ )?to \S+ to (?:disable|enable|fix|avoid|prevent|stop|force))\b|doesn'?t (?:have|expose|provide|allow|handle|work with) (?:a |an |any |native )|does not (?:have|expose|provide|allow|handle|work with) (?:a |an |any |native )|should only\b|\b(?:when|if|whenever)\b[^.]{3,80}\b(?:fails?|breaks?|crash(?:es)?|hangs?|times? out)\b|^(?:when|whenever)\s[^,.]{5,80},\s+(?:it|(?:the\s+)?[\x60\w.()-]+)\s+(?:[a-z]{3,}(?<![sui])s|is|are)\s/i;
const RULE_ZH = /以后|今后|总是|永远|始终|每次|必须|务必|不要|别再|不许|禁止|绝不|偏好|喜欢|讨厌|习惯|默认|一律|约定|规定/;
const LESSON_ZH = /因为|由于|原因|导致|根本原因|解决办法|办法是|教训|不支持|只支持|只接受|不能|无法|否则|会导致|而不是/;

const PERSON = /\b(?:i|i'm|i've|i'll|we|we're|we've|you|you're|your|let's|me|my)\b/i;
const NOW = /\b(?:now|just|currently|still|already|yet)\b/i;
/** Words that point at something in the conversation ("that branch", "the issue", "the plan"). */
const DEICTIC =
  /\b(?:this|that|these|those|above|below|here)\b|\bthe (?:issue|problem|error|bug|fix|result|plan|instruction|goal|task|epic|difference|change|current|remaining|following|same)\b/i;
/**
 * "this project", "this repo", "this machine": the place the facts belong to, not a pointer into the
 * conversation. Removed before the deictic test.
 */
const PLACE =
  /\b(?:in |on |for |of )?this (?:project|repo|repository|codebase|app|application|service|cluster|machine|device|computer|laptop|desktop|box|pc|router|network|server|host|workspace|team|company|monorepo|package|setup|environment)\b/gi;
/** A named subject, then a present-tense verb of state within the first few words. */
const FACT_FRAME = new RegExp(
  String.raw`^(?:the\s+|our\s+|your\s+|the user's\s+|this\s+(?:project|repo|repository|app)'?s?\s+)?(?:[\x60"']?[\w.@/#()~=-]+[\x60"']?(?:\s+|'s\s+)){1,6}?(?:(?:is|are|has|have|uses|use|lives|live|runs|run|stores|keeps|contains|accepts|supports|reads|passes|returns|requires|belongs|points|maps|delegates|monitors|tracks|connects|sits|stays|holds|owns|handles|calls|exposes|wraps|writes|collapses|auto-generates|generates|expects|logs|lacks|means)\b)`,
  'i',
);
/** The same frame with a verb known by its shape only; case matters there ("Port 6380 hosts Redis"). */
const SHAPE_FRAME = new RegExp(String.raw`^(?:[\x60"']?[\w.@/#()~=-]+[\x60"']?(?:\s+|'s\s+)){1,6}?` + S_VERB_SOURCE.slice(2));
/** A short finished sentence: a subject of up to three words, then a verb by its shape ("The repo enforces signed commits."). */
const SHORT_STATEMENT =
  /^(?:the\s+|our\s+|your\s+)?[\w.\x60@/-]+(?:\s+[\w.\x60@/-]+){0,2}\s+[a-z]{3,}(?<![sui])s\s+(?!(?:are|were|was|is|have|had|will|would|can|could|should|do|did|that|which|who)\b)[a-z][^.!?]*[.!]$/;
function isShortStatement(t: string): boolean {
  return SHORT_STATEMENT.test(t) && !/[:;,]/.test(t) && t.split(/\s+/).length <= 12;
}
/** "For users with X, it returns ...", "When empty, ...": the subject is not at the start, so the frame misreads it. */
const CLAUSE_LEAD = /^(?:for|with|in|on|at|when|if|after|before|since|while|once|unlike|like|by|from)\b/i;
/** The user's own things, as the assistant or a summary addresses them: "your router", "the user's laptop". */
const OWNED_SUBJECT = /^(?:your|our|the user's|the team's)\s+/i;
/** What is "yours" only in this session: the edits, the branch, the request. */
const SESSION_THING =
  /(?:^(?:our|the user's|the team's)|\byour)\s+(?:\w+\s+)?(?:changes|edits|commits?|branch|pull request|pr|build|tests?|work|request|question|message|files?|screenshot|draft|diff)\b/i;
/** "You have a NAS running TrueNAS", "you use fish as your shell": the assistant telling the user about their setup. */
const SECOND_PERSON_SETUP =
  /^(?:(?:based on|according to|from) [^,]{1,40},\s*)?you(?:'ve got| have| also have| use| run| keep| own| work with)\s+(?!to\b|\d+\s|(?:no|some|a few|several|many) (?:changes|errors|files|tests)\b)(?:an?|your|two|three|\w+)\b/i;

/** "We decided to keep X", "We settled on Y": a decision, in the voice of the team the assistant works in. */
const TEAM_DECISION =
  /^(?:we|the team|the user)(?:'ve| have)?\s+(?:decided|agreed|chose|settled on|standardi[sz]ed on|switched to|moved to|migrated to|are keeping|will keep|keep using|are standardi[sz]ing on)\b/i;

export function isTeamDecision(text: string): boolean {
  return TEAM_DECISION.test(text.trim());
}

/**
 * A subject that is a piece of the code being written ("the new function", "the component", "the
 * page"): what it does is how this task's code works, not a fact about the user or the project.
 */
const CODE_PART =
  /^(?:the|this|that|our|your)\s+(?:new|old|updated|current|existing|main|top|first|second|last)?\s*(?:component|function|method|helper|handler|page|template|test(?: file)?|variable|query|hook|class|module|file|code|guard|loop|button|form|modal|view|screen|route|endpoint|callback|reducer|selector|field|prop|props|attr|attrs|state|effect|render(?:er)?)s?\s/i;

function isStandingFact(t: string): boolean {
  if (NOW.test(t) || CODE_PART.test(t)) return false;
  const placeless = t.replace(PLACE, '');
  if (DEICTIC.test(placeless)) return false;
  if (SECOND_PERSON_SETUP.test(t)) return true;
  if (!(FACT_FRAME.test(t) || SHAPE_FRAME.test(t) || isShortStatement(t)) || SESSION_THING.test(t) || CLAUSE_LEAD.test(t)) return false;
  // A possessive subject names the user's own thing; any other person word makes it about the work.
  // "your Mac", "your default terminal" anywhere is the user's own thing too.
  return OWNED_SUBJECT.test(t) ? !/\b(?:i|i'm|we|we're|you|you're|let's|me)\b/i.test(t) : !PERSON.test(t.replace(/\byour\b/gi, ''));
}

/** A cause, a limitation or a failure condition: what turns a change-log line into a lesson. */
export function hasLesson(text: string): boolean {
  return hasCjk(text) ? LESSON_ZH.test(text) : LESSON.test(text);
}

/** For assistant prose and summaries: a rule, a lesson or a standing fact. */
export function hasDurableEvidence(text: string): boolean {
  const t = text.trim();
  if (hasCjk(t))
    return (
      RULE_ZH.test(t) ||
      LESSON_ZH.test(t) ||
      (/(?<![还就可但只要倒于或不])是|位于|属于|使用|运行在|存放在/.test(t) && weightedLength(t) >= 16)
    );
  if (RULE.test(t) || LESSON.test(t) || LIMITATION.test(t) || isTeamDecision(t)) return true;
  return isStandingFact(t);
}

// ---------------------------------------------------------------- user messages

/** "team decided swiftui for new screens", "decided to cancel the sub", "we're not doing X anymore" (rule-patterns.ts). */
const DECIDED = new RegExp(`${DECIDED_BY}|${DECIDED_OPENING}|${NOT_ANYMORE}`, 'i');
const USER_RULE =
  /\b(?:always|never(?! ?mind)|from now on|from here on|going forward|in (?:the )?future|by default|every ?time|whenever|each time|must(?:n't| not)?|don'?t ever|do not ever|prefer(?:s|red)?|favou?rite|dislike|hate|can't stand|remember|keep in mind|note that|make sure|ensure|should(?:n't)?|no longer|not allowed|forbidden|convention|rule|policy|instead|strictly(?! speaking)|insists? on)\b|\bdon'?t\b[^.?]{2,60}\binstead\b|\b(?:we|i)\s+(?:don'?t|do not|never)\s+(?:do|use|allow|accept|ship|deploy|touch|support|run)\b|\bno\s+[^.?]{1,30}\s+allowed\b/i;
const USER_DECISION =
  /\b(?:we|i)(?:'ve|'d| have| had)\s+(?:switched|swapped|moved|migrated|decided|chosen|agreed|stopped)\b|\b(?:we|i)(?:'ll| will| are going to|'re going to| decided| agreed| chose| settled| can keep| can instruct| can use| should| switched| moved| migrated| use| are using| always| never| (?:only )?(?:track(?! down)|tag|deploy|host|rent|own|pay for|wear|read on|drive an?|ride an?|take the \d)| want to (?:migrate|switch|move|use|keep|standardi[sz]e|adopt))\b|\blet'?s (?:go with|use|stick with|keep)\b/i;
const USER_NOW = /\b(?:right now|currently|still|already|yet|at the moment)\b/i;
/** "no console logs!", "don't fail, redact": a terse prohibition. */
const PROHIBITION = /^(?:no|never|don'?t|do not|stop)\s[^?]{2,60}$/i;

/** What the household's people and pets do: "the kids drink whole milk", "the rest of the family eats normal bread". */
const HOUSEHOLD_HABIT = new RegExp(
  HOUSEHOLD_SUBJECT_SOURCE +
    String.raw`(?:both\s+|all\s+|usually\s+|always\s+|only\s+)?(?!(?:is|are|was|were|has|had|will|would|can|could|should|did|do|does|just|got|went|said|asked|want|wants|need|needs)\b)[a-z]{3,}\b`,
  'i',
);

/** For user messages: a rule, preference, decision, self-disclosure or standing fact. */
export function hasUserEvidence(text: string): boolean {
  const t = text.trim();
  if (hasCjk(t))
    return hasDurableEvidence(t) || hasSelfDisclosure(t) || /记住|记得|别忘|决定|选择|改用|换成|我们用|我用|我的|我们的|我对/.test(t);
  if (
    USER_RULE.test(t) ||
    USER_DECISION.test(t) ||
    DECIDED.test(t) ||
    PROHIBITION.test(t) ||
    LESSON.test(t) ||
    hasSpanishUserEvidence(t) ||
    hasImplicitUserStatement(t) ||
    HOUSEHOLD_HABIT.test(t)
  )
    return true;
  if (hasSelfDisclosure(t) && !USER_NOW.test(t)) return true;
  if (STILL_VALUE.test(t)) return true;
  // "this laptop", "this repo": the place the fact belongs to, not a pointer into the conversation.
  return FACT_FRAME.test(t) && !USER_NOW.test(t) && !/\b(?:you|your|this|that|it)\b/i.test(t.replace(PLACE, ''));
}
