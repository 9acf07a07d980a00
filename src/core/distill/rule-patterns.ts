import type { MemoryCategory } from '../../spec/memory-record.js';
import { USER_TRIGGERS_EN_IMPLICIT } from './english-user.js';
import { USER_TRIGGERS_ES } from './spanish.js';

/**
 * The explicit statements rule-based capture learns, by who says them. A user states rules,
 * preferences, decisions, changes and facts about themselves or their project in many phrasings
 * ("never X", "don't ever X", "from now on X", "we use X, not Y", "our X is Y", "I switched to X",
 * "I prefer X", 以后/总是/别再/改用/我们用); a compaction summary restates them ("User demanded
 * '...'") next to lessons; an assistant only counts when it states a lesson explicitly ("the root
 * cause was ...", "X doesn't support Y"). The first matching trigger sets category and confidence.
 */
export type Speaker = 'user' | 'assistant' | 'summary';

/** What a trigger needs of its pattern (a RegExp, or a test on a folded copy of the text). */
export interface Matcher {
  test(text: string): boolean;
}

export interface Trigger {
  name: string;
  pattern: Matcher;
  category: MemoryCategory;
  confidence: number;
}

const SUBJECT = String.raw`(?:i|we|the team|our team)`;
/** Who settles a decision: "team agreed ...", "family agreed ...", "me and tom agreed ...". */
const DECIDING = String.raw`(?:${SUBJECT}|team|family|(?:the|our|my)\s+(?:family|household|company|board|group|whole team)|me and \w+|\w+ and i|we all|everyone)`;
export const DECIDED_BY = String.raw`\b${DECIDING}(?:'ve| have)?\s+(?:decided|agreed|chose|settled on|standardi[sz]ed on)\b`;
/** "decided to cancel the gym sub", "ok, decided: ...": the speaker's own decision, subject left out. */
export const DECIDED_OPENING = String.raw`^(?:(?:ok(?:ay)?|so|right|well|yeah)[,\s]+)?(?:(?:i\s+)?(?:have|'ve)\s+)?decided\s*(?:to|on|against|that|:)`;
/** "we're not supporting old safari anymore", "i don't drink coffee anymore": a standing change. */
export const NOT_ANYMORE = String.raw`\b(?:we|i)(?:'re|'m| are| am)?\s+(?:not|no longer|don'?t|do not)\s+(?:[^.?!,;]|\.(?=\w)){1,40}?\s+any\s?more\b`;

/** The English trigger phrases, without the implicit statements of english-user.ts. */
export const USER_TRIGGERS_EXPLICIT: Trigger[] = [
  {
    name: 'remember',
    pattern:
      /\b(?<!(?:can't|cannot|don't|do not|never|not) )remember\b(?! when\b)|\b(?:don't forget|do not forget|note to self|keep in mind|for future reference|bear in mind)\b/i,
    category: 'fact',
    confidence: 0.9,
  },
  {
    name: 'change',
    pattern: new RegExp(
      String.raw`\b${SUBJECT}(?:'ve| have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:switched|moved|migrated|changed|went|converted|upgraded)\s+(?:over\s+)?(?:from\s+[\w.+# -]{1,30}?\s+)?to\b|\b${SUBJECT}\s+(?:now\s+use|no longer\s+(?:use|want|like)|stopped\s+using|replaced\s+\S+(?:\s+\S+)?\s+with)\b|\b${SUBJECT}\s+use\s+[\w.+#-]+(?:\s+[\w.+#-]+)?\s+now\b|\bnot\s+[\w.+#-]+\s+anymore\b|${NOT_ANYMORE}`,
      'i',
    ),
    category: 'preference',
    confidence: 0.8,
  },
  {
    name: 'rule',
    pattern:
      /\b(?:always|never(?! ?mind)|from now on|going forward|from here on|in (?:the )?future|by default|every ?time|each time|whenever|don'?t ever|do not ever|under no circumstances|at all times|no more\s+\w+|must(?:n't| not)?)\b/i,
    category: 'rule',
    confidence: 0.85,
  },
  {
    name: 'decision',
    pattern: new RegExp(
      String.raw`${DECIDED_BY}|${DECIDED_OPENING}|\b(?:we're|we are)\s+(?:going with|standardi[sz]ing on|sticking with)\b|\blet'?s\s+(?:go with|stick with|standardi[sz]e on)\b|\bwe(?:'ll| will)\s+(?:use|keep|go with|stick with|start with|migrate|move|switch)\b|\bwe can keep\b|\b(?:this|it) will be\b[^.]{0,40}\bin phases\b|\bthe decision is\b`,
      'i',
    ),
    category: 'decision',
    confidence: 0.8,
  },
  {
    name: 'preference',
    pattern:
      /\bi\s+(?:really\s+|much\s+|strongly\s+|generally\s+)?(?:prefer|like|love|enjoy|hate|dislike|can'?t stand|don'?t like|do not like)\b|\bi'd rather\b|\bmy (?:favou?rite|preferred|go-to)\b|\bprefer\s+[\w.+# -]{1,30}\s+(?:over|to|to using)\b|\bwe prefer\b/i,
    category: 'preference',
    confidence: 0.75,
  },
  {
    name: 'use-not',
    pattern:
      /\b(?:we|i)\s+(?:usually\s+|mostly\s+|only\s+)?(?:use|run|deploy (?:on|to)|build with|code in|write)\s+[\w.@/+# -]{1,40}?,?\s+(?:not|never|instead of|rather than)\b|\buse\s+[\w.@/+# -]{1,40}?,?\s+(?:not|no)\s+[\w.@/+#-]+/i,
    category: 'rule',
    confidence: 0.8,
  },
  {
    name: 'i-use',
    pattern:
      /\bi\s+(?:usually\s+|mostly\s+|always\s+|only\s+)?(?:use|am using|work with|code in|wear|read on|drive an?|ride an?|take the \d)\s*\S+/i,
    category: 'preference',
    confidence: 0.65,
  },
  {
    name: 'we-use',
    pattern:
      /\bwe\s+(?:usually\s+|mostly\s+|always\s+|only\s+)?(?:use|are using|work with|code in|deploy|host|track|tag|manage|store|pay for|rent|own)\s+(?!it\b|this\b|that\b|them\b|down\b)\S+/i,
    category: 'fact',
    confidence: 0.7,
  },
  {
    name: 'our-x-is',
    pattern:
      /\b(?:our|my)\s+(?:[\w.-]+\s+){0,3}?(?:is|are|was|runs on|runs at|lives (?:in|at|on)|sits (?:on|at)|listens on|uses|is called|is named)\b/i,
    category: 'fact',
    confidence: 0.7,
  },
  {
    name: 'self',
    pattern:
      /\bi(?:'m| am)\s+(?:a|an|allergic|vegetarian|vegan|based|from|married|left-handed|colou?r-?blind)\b|\bi\s+(?:live|work|grew up)\s+(?:in|at|as|for|on)\b/i,
    category: 'fact',
    confidence: 0.7,
  },
  {
    name: 'normative',
    pattern:
      /^(?:(?:ok|so|and|also)[,\s]+)*(?:the\s+|our\s+)?(?:[\w.`'-]+\s+){1,5}?(?:should|must)\s+(?:always\s+|never\s+|not\s+)?(?:be|stay|use|show|stop|return|fit|fall back|run|live|go|have|never|only)\b|\bwe should\s+(?:always\s+|never\s+)?(?:use|keep|start|stick|prefer|avoid|investigate)\b/i,
    category: 'rule',
    confidence: 0.7,
  },
  {
    name: 'lesson',
    pattern: /\b(?:lesson learned|turns out|turned out|til|the trick is|the root cause)\b/i,
    category: 'lesson',
    confidence: 0.7,
  },
  {
    name: 'requirement',
    pattern:
      /^(?:please\s+)?(?:make sure|ensure)\s+(?!to\b|you\b|that you\b)(?:that\s+)?[\w.@/-]+(?:\s+[\w.@/-]+){0,3}\s+(?:is|are|stays?|remains?|uses?|runs?|never|always)\b/i,
    category: 'rule',
    confidence: 0.7,
  },
  { name: 'instead', pattern: /\b(?:don'?t|do not|never|stop)\b[^.?]{2,80}\binstead\b/i, category: 'rule', confidence: 0.75 },
  { name: 'or-else', pattern: /\b(?:needs? to|has to|have to)\b[^.?]{3,80}\b(?:or else|otherwise)\b/i, category: 'rule', confidence: 0.7 },
  {
    name: 'prohibition',
    pattern: /^(?:don'?t|do not)\s+\w+[^.?]{0,40}(?:!|\binstead\b)|^no\s+[\w.-]+(?:\s+[\w.-]+)?!$/i,
    category: 'rule',
    confidence: 0.65,
  },
];

export const USER_TRIGGERS: Trigger[] = [...USER_TRIGGERS_EXPLICIT, ...USER_TRIGGERS_EN_IMPLICIT];

export const USER_TRIGGERS_ZH: Trigger[] = [
  { name: 'remember', pattern: /记住|记得|别忘了|不要忘记|牢记/, category: 'fact', confidence: 0.9 },
  {
    name: 'change',
    pattern: /(?:我|我们)(?:已经|现在)?(?:改用|换成|换到|切换到|转到|迁移到)|(?:我|我们)(?:不再用|不用了|现在用)/,
    category: 'preference',
    confidence: 0.8,
  },
  {
    name: 'rule',
    pattern: /以后|今后|往后|从现在(?:开始|起)|总是|永远|始终|每次|不要再|别再|不许|禁止|绝不|务必|一律|默认|必须/,
    category: 'rule',
    confidence: 0.85,
  },
  { name: 'decision', pattern: /决定|我们选择了?|约定|定下来|统一用/, category: 'decision', confidence: 0.8 },
  {
    name: 'preference',
    pattern: /我(?:比较|更|很|最|非常|特别|不太|不)?(?:喜欢|偏好|爱|讨厌|习惯|倾向于)|我更愿意/,
    category: 'preference',
    confidence: 0.75,
  },
  { name: 'use-not', pattern: /(?:我们|我)(?:用|使用)[^，。]{1,20}[，,]?(?:而不是|不用|不是)/, category: 'rule', confidence: 0.8 },
  { name: 'we-use', pattern: /我(?:们)?(?:一般|通常|平时|主要)?(?:用|使用)(?!户)/, category: 'fact', confidence: 0.65 },
  { name: 'our-x-is', pattern: /(?:我|我们)的[^，。！？,.!?]{1,12}(?:是|叫|在)/, category: 'fact', confidence: 0.7 },
  { name: 'self', pattern: /我(?:住在|在[^，。]{1,10}工作|是一名|是个|是一个|对[^，。]{1,8}过敏)/, category: 'fact', confidence: 0.7 },
  { name: 'lesson', pattern: /教训|经验是|原来是因为/, category: 'lesson', confidence: 0.7 },
];

/**
 * A named thing that lacks a capability ("Blocky doesn't keep a query list by default", "The prod
 * release doesn't include `:observer`"): said of a tool or a part of the project, not of a person
 * or of what was just looked at, so the subject opens the sentence and is no pronoun.
 */
export const LIMITATION = new RegExp(
  String.raw`^(?!(?:since|but|and|so|if|when|while|because|although|though|i|you|we|it|this|that|these|those|there|here)\b)[^,;:.?]{2,60}?\s` +
    String.raw`(?:doesn'?t|does not|don'?t|do not|can'?t|cannot|won'?t|isn'?t|aren'?t|never|no longer)\s+(?:natively\s+|automatically\s+)?` +
    String.raw`(?:have|expose|keep|support|allow|handle|work with|accept|read|include|update|reload|pick up|respect|forward|preserve|exist|load|fire|trigger|refresh|render|persist|be used|be read|be combined)(?:e?s)?\b`,
  'i',
);
/**
 * What the project needs and what happens without it ("The deploy script needs `queue:restart` at the
 * end, otherwise ..."), what every new part of it must do ("Any new queue name has to be added to
 * ..."), and its conventions: rules the assistant found in the project rather than set for the task.
 */
const NEEDS_OR_ELSE =
  /\b(?:needs?|has to|have to|must)\b(?:[^.?]|\.(?=\S)){3,140}[,;]\s*(?:otherwise|or else|or (?:it|its|the|they|their|you)\b)/i;
const EVERY_NEW = /^(?:any|every|each) (?:new |future )?[\w`.-]+(?:[^.?]|\.(?=\S)){0,80}?\b(?:needs?|has to|have to|must)\b/i;
const CONVENTION = /^(?:the|our|its|their) convention\b[^.?]{0,60}\bis\b|\bby convention\b/i;

/**
 * Lessons about the project in plain words, as an assistant or a summary tells them: a limitation, a
 * need with its cost, a rule for every new part, a convention.
 */
const PROJECT_LESSONS: Trigger[] = [
  { name: 'limitation', pattern: LIMITATION, category: 'lesson', confidence: 0.65 },
  { name: 'needs-or-else', pattern: NEEDS_OR_ELSE, category: 'lesson', confidence: 0.65 },
  { name: 'every-new', pattern: EVERY_NEW, category: 'rule', confidence: 0.65 },
  { name: 'convention', pattern: CONVENTION, category: 'rule', confidence: 0.65 },
];

/** Lessons stated explicitly after a fix, by an assistant or in a summary's errors-and-fixes part. */
export const LESSON_TRIGGERS: Trigger[] = [
  {
    name: 'lesson',
    pattern:
      /\b(?:the root cause (?:was|is)|root cause:|turn(?:s|ed) out (?:that )?|lesson(?: learned)?:|the (?:real )?(?:problem|issue|bug) (?:was|is) (?:that|caused by)|(?:was|is|were|are) caused by|known (?:issue|bug|limitation)|doesn'?t support|does not support|is not supported|isn'?t supported|only (?:accepts?|supports?|allows?|reads?|has|have|works (?:with|on|in))|(?:is|are) hardcoded to|returns?\b[^.]{1,80},?\s+not (?:an? |the )?\w+|(?:was|is) blocked by|failed (?:to install )?(?:due to|because of)|automatically (?:removes?|removed|drops?|dropped|deletes?|deleted)|must be re-added|needs to be re-added|the fix (?:is|was) to)\b|\bwhen\b[^.]{3,80}\b(?:fails?|breaks?|crash(?:es)?|hangs?|times? out)\b/i,
    category: 'lesson',
    confidence: 0.7,
  },
  ...PROJECT_LESSONS,
];

export const LESSON_TRIGGERS_ZH: Trigger[] = [
  { name: 'lesson', pattern: /根本原因|原因是|原来是因为|不支持|只支持|只接受|教训是|解决办法是/, category: 'lesson', confidence: 0.7 },
];

/** A compaction summary quoting or restating what the user demanded ("User demanded \"...\""). */
export const SUMMARY_USER_STATEMENT =
  /\b(?:the\s+)?user\s+(?:explicitly\s+|repeatedly\s+|strongly\s+)?(?:demanded|insisted|emphasi[sz]ed|stressed|required|requires|specified|prefers|preferred|wants|wanted|dislikes|clarified|corrected|decided|stated|set the rule|made clear)\b(?:\s+(?:that|to|on))?\s*[:,]?\s*["“]?([^"”]{4,300})["”]?/i;

/** Summary sentences also carry rules and preferences in the third person. */
export const SUMMARY_RULE =
  /\b(?:always|never(?! ?mind)|must(?:n't| not)?|from now on|by default|prefers?|preference|convention|policy|not allowed|forbidden|banned|don'?t|do not|source of truth)\b/i;

/**
 * A summary's decision with its reason ("Chose Postgres queue over Redis streams: low volume, ...",
 * "Multipart upload instead of writing to /tmp: pods have a 1Gi limit", "Decided X rather than Y,
 * because ..."): the reason is what makes it a choice that holds beyond the task.
 */
export const SUMMARY_DECISION =
  /^(?:(?:decided|chose|picked|opted|went|settled)\b|[^.]{3,80}\b(?:instead of|rather than|over)\b)[^.]{3,200}(?:\bbecause\b|\bsince\b|\bso that\b|\bto avoid\b|:\s|\s[—–]\s)/i;

/** An "errors and fixes" entry: the error, then an arrow or a dash to its cause or fix. */
export const SUMMARY_ERROR_FIX =
  /\b(?:\w*error|\w*exception|fails?|failed|failure|cannot|can'?t|not found|does not exist|undefined|refused|denied|timed? ?out|flaky|crash\w*)\b[^→]{0,200}?(?:\s(?:→|->)\s|\s[—–]\s*(?:caused by|fixed by|fix(?:ed)?:|because)\b)/i;

export function triggersFor(speaker: Speaker, cjk: boolean, spanish = false): Trigger[] {
  if (speaker === 'user') return cjk ? USER_TRIGGERS_ZH : spanish ? USER_TRIGGERS_ES : USER_TRIGGERS;
  return cjk ? LESSON_TRIGGERS_ZH : LESSON_TRIGGERS;
}
