/**
 * Text signals shared by the admission gate and rule-based capture, English and Chinese.
 * Each detector answers one question about a candidate memory; the gate decides how they combine.
 * Patterns describe families of text (a shell command, a greeting, a progress line), never
 * particular sentences.
 */

export const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const CJK_G = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Length that weighs a CJK character like two Latin letters (a CJK character carries about a word). */
export function weightedLength(text: string): number {
  const cjk = text.match(CJK_G)?.length ?? 0;
  const latin = text.match(/[A-Za-z0-9]/g)?.length ?? 0;
  return cjk * 2 + latin;
}

/** Lower case, no punctuation, symbols or emoji, single spaces. */
export function core(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}\p{Extended_Pictographic}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A verb no word list knows, by its shape: a third-person -s form ("hosts", "deploys", "backs up")
 * followed by what a clause continues with (an article, a particle, a number, a name, code, or a
 * preposition before a name). A plural noun is rarely followed by those ("components for x" is not).
 */
export const S_VERB_SOURCE = String.raw`\b[a-z]{2,}(?<![sui])s\s+(?:(?:to|from|into|onto|via|through|on|in|at|with|over|under|for|by)\s+[A-Z\d\x60"']|(?:the|a|an|its|their|his|her|our|your|all|every|each|no|only|up|down|out|off|back|everything|anything|nothing|them|it|both)\b|\d|[A-Z\x60"'])`;
const S_VERB = new RegExp(S_VERB_SOURCE);

/**
 * The household's people and pets as a subject ("the kids", "our two dogs", "the rest of the
 * family"), then a word: what they do is told with verbs no list holds ("drink", "see").
 */
export const HOUSEHOLD_SUBJECT_SOURCE = String.raw`^(?:the|our|my)\s+(?:[\w-]+\s+){0,3}?(?:kids?|children|sons?|daughters?|wife|husband|partner|family|parents|in-laws|mum|mom|dad|boys|girls|twins|baby|toddler|dogs?|cats?)\s+`;

export function hasShapeVerb(text: string): boolean {
  return S_VERB.test(text);
}

// ---------------------------------------------------------------- durable statement markers

/**
 * Explicit markers of something meant to last: rules, preferences, decisions, lessons. A text with
 * one is not treated as a one-off request, status line or loose tool output.
 */
const RULE_EN =
  /\b(?:always|never(?! ?mind)|from now on|going forward|in (?:the )?future|by default|every ?time|whenever|each time|as a rule|remember|don't forget|note to self|keep in mind|make sure (?:to|that|you)|prefer(?:s|red|ence)?|rather than|instead of|don'?t|do not|avoid|must(?:n't)?|should(?:n't)?|lesson|learned|takeaway|rule of thumb|decided|decision|we (?:agreed|chose|settled)|policy|convention|default to|stop (?:suggesting|using|recommending|adding|asking|sending)|(?:in|for|on|to) (?:every|each|all) [a-z]+)\b/i;
const RULE_ZH =
  /记住|记得|别忘|以后|今后|往后|总是|永远|从不|从来不|一直|每次|每当|默认|始终|从现在(?:开始|起)|不要|别再|不许|不准|禁止|千万|务必|必须|应该|应当|偏好|更喜欢|喜欢|讨厌|不喜欢|习惯|决定|约定|统一|规定|教训|经验|注意|而不是|代替|改用|优先/;

export function hasRuleMarker(text: string): boolean {
  return RULE_EN.test(text) || RULE_ZH.test(text);
}

/** Explanations turn tool output into a lesson: "ECONNREFUSED here means the VPN is down". */
const EXPLAIN =
  /\b(?:means|meant|because|caused by|due to|root cause|the fix (?:is|was)|fixed (?:it |this )?by|workaround|solution|happens when|if you see|turned out|so (?:we|i) (?:need|have) to)\b|原因|因为|导致|解决|办法|意味着|说明|如果(?:遇到|看到|出现)/i;

export function hasExplanation(text: string): boolean {
  return EXPLAIN.test(text);
}

/** First-person facts: "my X is", "I live in", "我的", "我是". */
const SELF_EN =
  /\b(?:my|our)\s+[a-z]|\b(?:i|we)\s+(?:am|was|have|had|live|lived|work|worked|use|used|like|love|hate|enjoy|own|speak|moved|switched|started|stopped|quit|joined|left|got|bought|grew up|usually|tend|need|want|can't|cannot)\b|\bi'm\b|\bi've been\b/i;
const SELF_ZH =
  /我的|我们的|我是|我在|我住|我家|我有|我会|我用|我们用|我已经|我平时|我一般|我通常|我正在学|我女儿|我儿子|我老婆|我老公|我妈|我爸/;

export function hasSelfDisclosure(text: string): boolean {
  return SELF_EN.test(text) || SELF_ZH.test(text);
}

// ---------------------------------------------------------------- injected context

const INJECTED: RegExp[] = [
  /<\s*\/?\s*(?:relevant[-_ ]?memories|recalled[-_ ]?memories|memories|memory|memory[-_ ]?context|system[-_ ]?reminder|user[-_ ]?profile|persona|context|strata(?:[-_:][\w-]+)?)\b[^>]{0,80}>/i,
  /\[(?:memory context|relevant memories|recalled memories|memories|memory|injected context|context from memory)\]/i,
  /\((?:untrusted|trusted) metadata\)|conversation info \(|sender \(untrusted/i,
  /^\s*#{1,4}\s*(?:relevant|recalled|retrieved|long[- ]term|user) memor(?:y|ies)\b/im,
  /^\s*(?:relevant|recalled|retrieved|stored|known) memor(?:y|ies)\s*[:：]/im,
  /\bthe following (?:are|is) (?:some )?(?:relevant |recalled |stored |retrieved )?memor(?:y|ies)\b/i,
  /^\s*(?:[-*•]|\d+[.)])\s*\[(?:preference|fact|decision|entity|event|rule|lesson|other|偏好|事实|决定|规则|教训)\]/im,
  /\((?:score|sim|similarity|relevance)\s*[:=]?\s*[01]?\.\d+\)/i,
  /^\s*\[(?:system|assistant|developer)(?: message| note)?\]/im,
  /<<\s*sys\s*>>|<\|(?:im_start|system)\|>/i,
  /以下是(?:一些)?(?:相关|你的|用户的|检索到的|已知的)?(?:记忆|长期记忆)|【(?:记忆|相关记忆|系统提示|系统)】|^\s*(?:相关|历史|检索到的)记忆\s*[:：]/m,
];

export function isInjectedBlock(text: string): boolean {
  return INJECTED.some((re) => re.test(text));
}

// ---------------------------------------------------------------- content evidence

/**
 * Positive evidence that a short text states something reusable: a rule or preference marker, a
 * first-person statement, an explanation, or a copula/verb sentence about a named thing.
 */
export function hasContentEvidence(text: string): boolean {
  const t = text.trim();
  if (hasRuleMarker(t) || hasSelfDisclosure(t) || hasExplanation(t)) return true;
  if (/^(?:i|we)\b(?!'ll| will)/i.test(t) || /^我(?!来|先)/.test(t)) return true;
  // "Kestrel is our CI pool", "Emma handles sales": a capitalised or numeric subject and a verb.
  if (
    /^(?:[A-Z][\w.-]*|\d[\w.-]*)(?: [A-Z][\w.-]*)* (?:is|are|was|were|has|have|uses?|runs?|lives?|works?|owns?|handles?|leads?|supports?|starts?|ends?|costs?|means?)\b/.test(
      t,
    )
  )
    return true;
  // 是 in 还是/就是/但是/可是 is a conjunction or adverb, not a copula.
  return /(?:(?<![还就可但只要倒于或不])是|在|有|用|叫|住|属于|负责|位于)/.test(t) && weightedLength(t) >= 12;
}

/** Short enough that without evidence it is almost always chatter: fewer than 6 words / 10 CJK characters. */
export function isShort(text: string): boolean {
  const t = text.trim();
  return hasCjk(t) ? weightedLength(t) < 20 : core(t).split(' ').filter(Boolean).length < 6;
}

/** `text` without the lead `lead` matches at its start, capitalised again when something was cut. */
export function withoutLead(text: string, lead: RegExp): string {
  const stripped = text.replace(lead, '');
  return stripped === text ? text : stripped.charAt(0).toUpperCase() + stripped.slice(1);
}
