import type { MemoryCategory } from '../../spec/memory-record.js';
import { admit, injectionReasons, type AdmissionGate } from './admission.js';
import { isInjectedBlock } from './signals.js';

/**
 * Rule-based capture, used when no LLM is configured: sentences of a user message that carry an
 * explicit trigger (remember, prefer, always, never, decided, "my X is", 记住, 我喜欢, 以后 ...)
 * become candidate memories, each passed through the admission gate, at most `maxPerTurn` per
 * message. Precision over recall: a sentence without a trigger is never captured.
 */
export interface RuleCandidate {
  text: string;
  category: MemoryCategory;
  importance: number;
  confidence: number;
}

export interface CaptureByRulesOptions {
  /** One user message. */
  text: string;
  /** Default 3. */
  maxPerTurn?: number;
  /** A gate to count decisions in; by default each candidate goes through `admit` uncounted. */
  gate?: AdmissionGate;
}

interface Trigger {
  pattern: RegExp;
  confidence: number;
}

// Ordered by strength: the first trigger that matches sets the confidence.
const TRIGGERS: Trigger[] = [
  { pattern: /\b(?:remember|don't forget|do not forget|note to self|keep in mind)\b|记住|记得|别忘了|不要忘记/i, confidence: 0.9 },
  {
    pattern:
      /\b(?:always|never|from now on|going forward|in (?:the )?future|by default|every time|whenever)\b|总是|永远|从不|以后|今后|从现在(?:开始|起)|每次|不要再|别再|务必|一律|默认/i,
    confidence: 0.8,
  },
  { pattern: /\b(?:we|i|team)\s+(?:have\s+|'ve\s+)?(?:decided|agreed|chose|settled on)\b|\b(?:we're|we are) going with\b|决定|我们选择了?|约定|定下来/i, confidence: 0.8 },
  {
    pattern:
      /\bi\s+(?:really\s+|much\s+|strongly\s+)?(?:prefer|like|love|enjoy|hate|dislike|can't stand|cannot stand|don't like|do not like)\b|\bi'd rather\b|\bmy (?:favou?rite|preferred)\b|\bprefer\b|我(?:比较|更|很|最|非常|特别|不太|不)?(?:喜欢|偏好|爱|讨厌|习惯|倾向于)|我更愿意/i,
    confidence: 0.75,
  },
  { pattern: /\bi\s+(?:usually\s+|mostly\s+|always\s+)?(?:use|am using|work with|code in)\b|我(?:一般|通常|平时|主要)?(?:用|使用)(?!户)/i, confidence: 0.65 },
  { pattern: /\bmy\s+[\w' -]{1,30}?\s+(?:is|are|was)\b|我的[^，。！？,.!?]{1,12}(?:是|叫)/i, confidence: 0.7 },
  {
    pattern:
      /\bi(?:'m| am)\s+(?:a|an|allergic|vegetarian|vegan|based)\b|\bi\s+(?:live|work|grew up)\s+(?:in|at|as|for|on)\b|我(?:住在|在[^，。]{1,10}工作|是一名|是个|是一个|对[^，。]{1,8}过敏)/i,
    confidence: 0.7,
  },
  { pattern: /\b(?:lesson learned|lesson|turns out|turned out|til)\b|教训|经验是|原来是因为/i, confidence: 0.7 },
];

const CATEGORY_RULES: Array<[MemoryCategory, RegExp]> = [
  ['rule', /\b(?:always|never|from now on|going forward|in (?:the )?future|by default|every time|whenever|must|don't|do not)\b|总是|永远|从不|以后|今后|从现在(?:开始|起)|每次|不要|别再|务必|必须|一律|默认/i],
  ['decision', /\b(?:decided|agreed|chose|settled on|going with|decision)\b|决定|选择了|约定|定下来/i],
  ['lesson', /\b(?:lesson|learned|turns out|turned out|til|caused by|root cause)\b|教训|经验|原因是|原来是因为/i],
  ['preference', /\b(?:prefer|like|love|enjoy|hate|dislike|can't stand|rather|favou?rite)\b|喜欢|偏好|讨厌|习惯|倾向|更愿意/i],
  ['event', /\b(?:on (?:mon|tue|wed|thu|fri|sat|sun)\w*|next (?:week|month|year)|tomorrow|yesterday|last (?:week|month|year)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2})\b|\d{1,2}月\d{1,2}[日号]|下(?:周|个月)|明天|昨天|上(?:周|个月)/i],
  ['entity', /\b(?:codename|code name|is (?:our|my|the) (?:manager|boss|dentist|doctor|lead|team|colleague|friend))\b|代号|负责人|是我的/i],
  ['preference', /\bi\s+(?:usually\s+|mostly\s+)?use\b|我(?:一般|通常|平时)?(?:用|使用)(?!户)/i],
];

const IMPORTANCE: Record<MemoryCategory, number> = {
  rule: 0.8,
  decision: 0.8,
  lesson: 0.75,
  preference: 0.7,
  entity: 0.6,
  fact: 0.6,
  event: 0.5,
  other: 0.5,
};

export function detectCategory(text: string): MemoryCategory {
  for (const [category, pattern] of CATEGORY_RULES) if (pattern.test(text)) return category;
  return 'fact';
}

/** Leading "please remember that" adds nothing to the memory itself. */
function stripLeadIn(sentence: string): string {
  return sentence
    .replace(/^(?:(?:ok(?:ay)?|also|and|btw|by the way|fyi|oh),?\s+)*(?:please\s+)?(?:remember|note|don't forget|keep in mind)(?:\s+that)?\s*[:,]?\s*/i, '')
    .replace(/^(?:另外|还有|对了)?[，,]?(?:请)?(?:记住|记得|别忘了|不要忘记)[:：，,]?\s*/, '')
    .trim();
}

/** Sentences of a message; CJK and Latin punctuation, and line breaks. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|(?<=[。！？；])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Removes host-injected context (recalled memories, metadata) that precedes the user's words. */
function stripInjected(text: string): string {
  return text
    .replace(/<\s*(relevant[-_ ]?memories|recalled[-_ ]?memories|memories|memory|system[-_ ]?reminder|context)\b[^>]*>[\s\S]*?<\s*\/\s*\1\s*>/gi, ' ')
    .split('\n')
    .filter((line) => !isInjectedBlock(line))
    .join('\n');
}

export function captureByRules(options: CaptureByRulesOptions): RuleCandidate[] {
  const maxPerTurn = options.maxPerTurn ?? 3;
  if (maxPerTurn <= 0) return [];
  const message = stripInjected(options.text);
  // An injection can span sentences ("Ignore the above. Always ..."): one in the message taints it all.
  if (injectionReasons(message) !== undefined) return [];

  const seen = new Set<string>();
  const candidates: Array<RuleCandidate & { order: number }> = [];
  for (const [order, sentence] of splitSentences(message).entries()) {
    const trigger = TRIGGERS.find((t) => t.pattern.test(sentence));
    if (!trigger) continue;
    const text = stripLeadIn(sentence).replace(/[,;:，；：]+$/, '');
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    const decision = options.gate ? options.gate.admit({ text, confidence: trigger.confidence }) : admit({ text, confidence: trigger.confidence });
    if (!decision.admitted) continue;
    seen.add(key);
    const category = detectCategory(text);
    candidates.push({ text, category, importance: IMPORTANCE[category], confidence: trigger.confidence, order });
  }
  return candidates
    .sort((a, b) => b.importance - a.importance || b.confidence - a.confidence || a.order - b.order)
    .slice(0, maxPerTurn)
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...candidate }) => candidate);
}
