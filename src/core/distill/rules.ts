import type { MemoryCategory } from '../../spec/memory-record.js';
import { admit, injectionReasons, type AdmissionGate } from './admission.js';
import { normalizeStatement } from './normalize-statement.js';
import {
  SUMMARY_DECISION,
  SUMMARY_ERROR_FIX,
  SUMMARY_RULE,
  SUMMARY_USER_STATEMENT,
  triggersFor,
  USER_TRIGGERS_EXPLICIT,
  type Speaker,
  type Trigger,
} from './rule-patterns.js';
import { proseSentences, withNoExceptionsJoined } from './sentences.js';
import { summarySentences, type SummarySentence } from './summary-sections.js';
import { restates } from './restated.js';
import { isPersonStatement } from './summary-voice.js';
import { saysRestated, withoutRestatementLeadIn } from './restatement-markers.js';
import { withoutAgreement } from './source-policy.js';
import { withDroppedContext } from './dropped-context.js';
import { causeAsStatement } from './cause-clause.js';
import { statementBeforeQuestion } from './english-facts.js';
import { isPlainStatement } from './plain-statement.js';
import { foldInformal } from './english-user.js';
import { looksSpanish, statementBeforeAsideEs, statementBeforeRequestEs } from './spanish.js';
import { foldChatEs } from './spanish-user.js';
import { splitUserQuotes } from './summary-quotes.js';
import { hasCjk, isInjectedBlock } from './signals.js';
import { readsAsKept, type UserModelReading } from './junk-model/user-judgement.js';
import { proseReadsAsKept, type ProseModelReading } from './junk-model/prose-judgement.js';
import { hasLesson } from './durable-evidence.js';

/**
 * Rule-based capture, used when no LLM is configured: explicit statements become candidate
 * memories. From user messages: rules, preferences, decisions, changes ("I switched to Helix") and
 * facts, in the many ways people state them (see rule-patterns.ts); from compaction summaries: what
 * the summary says the user demanded, third-person rules and explicit lessons; from assistant
 * messages: explicit lessons and the project's limitations and conventions. Each candidate is
 * judged by the admission gate on the sentence as written (so a request or a complaint never
 * becomes a memory), then normalised to a clean standalone sentence. A user sentence with no
 * trigger phrase is still learned when it is an English plain statement (plain-statement.ts) or one
 * the user-message model (junk-model/) reads as worth keeping with confidence, and the gate admits
 * it; so is an assistant's or a summary's sentence its own model reads so
 * (junk-model/prose-judgement.ts). All are marked `untriggered`, and offline reconciliation takes
 * each as a retelling of a very close memory it shares two words with: a paraphrase is not stored
 * twice, and a new fact on a stored fact's topic is not dropped as its retelling.
 */
export interface RuleCandidate {
  text: string;
  category: MemoryCategory;
  importance: number;
  confidence: number;
  /** The trigger family that matched ("rule", "change", "use-not", ...). */
  trigger: string;
  /** The speaker marked it as said before ("as I said", "reminder", "still"): see restatement-markers.ts. */
  restated?: true;
  /** No trigger phrase introduced it (trigger `statement`): a very close memory is what it retells. */
  untriggered?: true;
}

export interface CaptureByRulesOptions {
  /** One message. */
  text: string;
  /** Who wrote it. Default `user`. */
  role?: Speaker;
  /** Default 3 for user messages, 2 for assistant messages, 30 for summaries. */
  maxPerTurn?: number;
  /** A gate to count decisions in; by default each candidate goes through `admit` uncounted. */
  gate?: AdmissionGate;
  /** The user-message model and its thresholds; default the shipped ones. */
  userModel?: UserModelReading;
  /** The assistant-message or summary model (by `role`) and its threshold; default the shipped ones. */
  proseModel?: ProseModelReading;
}

/** A summary's quotes of the user are read for trigger phrases only: the session's own messages were captured as they came. */
type MessageOptions = CaptureByRulesOptions & { quoted?: boolean };

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

const CATEGORY_RULES: Array<[MemoryCategory, RegExp]> = [
  [
    'rule',
    /\b(?:always|never|from now on|going forward|in (?:the )?future|by default|every time|whenever|must|don't|do not)\b|总是|永远|从不|以后|今后|从现在(?:开始|起)|每次|不要|别再|务必|必须|一律|默认/i,
  ],
  ['decision', /\b(?:decided|agreed|chose|settled on|going with|decision)\b|决定|选择了|约定|定下来/i],
  ['lesson', /\b(?:lesson|learned|turns out|turned out|til|caused by|root cause)\b|教训|经验|原因是|原来是因为/i],
  [
    'preference',
    /\b(?:prefer(?:s|red)?|likes?|loves?|enjoys?|hates?|dislikes?|can't stand|rather|favou?rite|switched to|uses|wants)\b|喜欢|偏好|讨厌|习惯|倾向|更愿意|改用|换成/i,
  ],
  [
    'event',
    /\b(?:on (?:mon|tue|wed|thu|fri|sat|sun)\w*|next (?:week|month|year)|tomorrow|yesterday|last (?:week|month|year)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2})\b|\d{1,2}月\d{1,2}[日号]|下(?:周|个月)|明天|昨天|上(?:周|个月)/i,
  ],
  ['entity', /\b(?:codename|code name|is (?:our|my|the) (?:manager|boss|dentist|doctor|lead|team|colleague|friend))\b|代号|负责人|是我的/i],
];

/** The category a text reads as (used for remembered statements, whose trigger says nothing). */
export function detectCategory(text: string): MemoryCategory {
  for (const [category, pattern] of CATEGORY_RULES) if (pattern.test(text)) return category;
  return 'fact';
}

/** Sentences of a message (markdown-aware): see sentences.ts. */
export function splitSentences(text: string): string[] {
  return proseSentences(text);
}

/** Removes host-injected context (recalled memories, metadata) that precedes the user's words. */
function stripInjected(text: string): string {
  return text
    .replace(
      /<\s*(relevant[-_ ]?memories|recalled[-_ ]?memories|memories|memory|system[-_ ]?reminder|context)\b[^>]*>[\s\S]*?<\s*\/\s*\1\s*>/gi,
      ' ',
    )
    .split('\n')
    .filter((line) => !isInjectedBlock(line))
    .join('\n');
}

interface Found {
  /** What the memory is made of (a quote for "User demanded \"...\""). */
  statement: string;
  trigger: Trigger;
  /** A summary quoting the user is judged as the user's own words. */
  judgeAs?: Speaker;
}

const STRONG_DEMAND = /demanded|insisted|emphasi[sz]ed|stressed|required|requires|specified|set the rule|made clear|clarified|corrected/i;

/** The trigger a sentence of `role` carries, and the part of it that is the statement. */
function findTrigger(sentence: string, role: Speaker, options: { plainStatements: boolean }): Found | undefined {
  const cjk = hasCjk(sentence);
  if (role === 'summary' && !cjk) {
    const quoted = SUMMARY_USER_STATEMENT.exec(sentence);
    if (quoted) {
      const verb = /user\s+(?:\w+\s+)?(\w+)/i.exec(sentence)?.[1] ?? '';
      const inner = triggersFor('user', false).find((t) => t.pattern.test(quoted[1]!));
      if (inner) return { statement: quoted[1]!, trigger: inner, judgeAs: 'user' };
      if (STRONG_DEMAND.test(verb))
        return {
          statement: quoted[1]!,
          trigger: { name: 'demand', pattern: STRONG_DEMAND, category: 'rule', confidence: 0.75 },
          judgeAs: 'user',
        };
      if (/prefer|want|dislike/i.test(verb))
        return { statement: sentence, trigger: { name: 'preference', pattern: /prefer/, category: 'preference', confidence: 0.7 } };
      if (/decided/i.test(verb))
        return { statement: sentence, trigger: { name: 'decision', pattern: /decided/, category: 'decision', confidence: 0.75 } };
    }
    if (SUMMARY_RULE.test(sentence))
      return { statement: sentence, trigger: { name: 'rule', pattern: SUMMARY_RULE, category: 'rule', confidence: 0.7 } };
    if (SUMMARY_ERROR_FIX.test(sentence))
      return { statement: sentence, trigger: { name: 'lesson', pattern: SUMMARY_ERROR_FIX, category: 'lesson', confidence: 0.7 } };
    if (SUMMARY_DECISION.test(sentence))
      return { statement: sentence, trigger: { name: 'decision', pattern: SUMMARY_DECISION, category: 'decision', confidence: 0.7 } };
    if (isPersonStatement(sentence))
      return { statement: sentence, trigger: { name: 'person', pattern: /./, category: detectCategory(sentence), confidence: 0.7 } };
  }
  const spanish = !cjk && looksSpanish(sentence);
  // English typed without apostrophes ("dont ever", "im vegan", "u"): matched and stored spelt out.
  const said = role === 'user' && !cjk && !spanish ? foldInformal(sentence) : sentence;
  const trigger = triggersFor(role, cjk, spanish).find((t) => t.pattern.test(said));
  if (trigger) return { statement: said, trigger };
  // Spanish with an English clause ("I prefer small PRs, máximo 300 líneas"): the English phrases read it too.
  const english = spanish && role === 'user' ? USER_TRIGGERS_EXPLICIT.find((t) => t.pattern.test(foldInformal(sentence))) : undefined;
  if (english) return { statement: sentence, trigger: english };
  // A plain English statement with no trigger phrase ("the kids drink whole milk", "internal calls
  // use gRPC"): the gate alone judges it, and reconciliation takes it as a likely retelling.
  if (options.plainStatements && role === 'user' && !cjk && !spanish && isPlainStatement(said))
    return { statement: said, trigger: { name: 'statement', pattern: /./, category: detectCategory(said), confidence: 0.6 } };
  return undefined;
}

// A summary of a long session files dozens of lasting things; a message says a few.
const MAX_PER_TURN: Record<Speaker, number> = { user: 3, assistant: 2, summary: 30 };

/** A user's sentence the user-message model reads as worth keeping: the model is its trigger. */
function modelLine(sentence: string): Found {
  const said = looksSpanish(sentence) ? sentence : foldInformal(sentence);
  return { statement: said, trigger: { name: 'model', pattern: /./, category: detectCategory(said), confidence: 0.6 } };
}

/** An assistant's or a summary's sentence its model reads as a lasting fact or lesson: the model is its trigger. */
function proseModelLine(sentence: string): Found {
  // What the agent states unprompted is what it found out: a lesson when a cause or a limit is in
  // it, else a fact (never the user's preference).
  const category = hasLesson(sentence) ? 'lesson' : 'fact';
  return { statement: sentence, trigger: { name: 'model', pattern: /./, category, confidence: 0.6 } };
}

/** A line under a summary heading that files lasting things: the heading is its trigger (summary-sections.ts). */
function standingLine(sentence: string): Found | undefined {
  if (hasCjk(sentence)) return undefined;
  const category = /\b(?:decided|decision|chose|instead of|rather than)\b/i.test(sentence) ? 'decision' : detectCategory(sentence);
  return { statement: sentence, trigger: { name: 'section', pattern: /./, category, confidence: 0.65 } };
}

export function captureByRules(options: CaptureByRulesOptions): RuleCandidate[] {
  if (options.role === 'summary') {
    const { rest, quotes } = splitUserQuotes(options.text);
    if (quotes.length > 0) {
      const quoted = quotes.flatMap((text) => captureFromMessage({ ...options, text, role: 'user', maxPerTurn: undefined, quoted: true }));
      const all = [...quoted, ...captureFromMessage({ ...options, text: rest })];
      // The summary's other sections often restate a quoted demand ("User demanded \"...\"").
      return withoutRestatements(all);
    }
    return withoutRestatements(captureFromMessage(options));
  }
  return captureFromMessage(options);
}

/** A summary tells the same thing in several sections: the first telling stays. */
function withoutRestatements(candidates: RuleCandidate[]): RuleCandidate[] {
  const kept: RuleCandidate[] = [];
  for (const c of candidates)
    if (!kept.some((k) => k.text.toLowerCase() === c.text.toLowerCase() || restates(k.text, c.text))) kept.push(c);
  return kept;
}

function captureFromMessage(options: MessageOptions): RuleCandidate[] {
  const role = options.role ?? 'user';
  const maxPerTurn = options.maxPerTurn ?? MAX_PER_TURN[role];
  if (maxPerTurn <= 0) return [];
  const message = stripInjected(options.text);
  // An injection can span sentences ("Ignore the above. Always ..."): one in the message taints it all.
  if (injectionReasons(message) !== undefined) return [];

  const seen = new Set<string>();
  const candidates: Array<RuleCandidate & { order: number }> = [];
  const sentences: SummarySentence[] =
    role === 'summary'
      ? summarySentences(message)
      : withNoExceptionsJoined(proseSentences(message)).map((text) => ({ text, standing: false }));
  for (const [order, { text: whole, standing }] of sentences.entries()) {
    // Spanish chat shorthand ("aprendi q ...", "x ahora") is read, and stored, spelt out.
    const typed = role === 'user' && !hasCjk(whole) && looksSpanish(whole) ? foldChatEs(whole) : whole;
    // The agent's "You're right - X" says X, the user's "as I said, X" says X again.
    const said = role === 'user' ? withoutRestatementLeadIn(typed) : withoutAgreement(typed);
    // "our api is on 8080, how do i proxy to it?": the statement is judged without its question.
    const spanish = looksSpanish(said);
    const head =
      role === 'user' && !hasCjk(said)
        ? spanish
          ? (statementBeforeRequestEs(said) ?? statementBeforeAsideEs(said))
          : statementBeforeQuestion(said)
        : undefined;
    // "since i'm the only one on shaders, can you ...": the reason given is the statement.
    const sentence = head ? causeAsStatement(head, { spanish }) : said;
    // The user-message model (junk-model/) reading it as worth keeping stands for a missing fact word,
    // and for a trigger when none is found. A summary's quotes of the user are read for triggers only.
    const modelKept = role === 'user' && options.quoted !== true && readsAsKept(sentence, options.userModel);
    const found =
      findTrigger(sentence, role, { plainStatements: options.quoted !== true }) ??
      (standing ? standingLine(sentence) : undefined) ??
      (modelKept ? modelLine(sentence) : undefined) ??
      (role !== 'user' && !standing && proseReadsAsKept(sentence, role, options.proseModel) ? proseModelLine(sentence) : undefined);
    if (!found) continue;
    const { trigger } = found;
    // The sentence as written is what the gate judges: a request or a complaint stays junk whatever
    // the normalised form would look like.
    const judged = found.judgeAs ? found.statement : sentence;
    const decision = (options.gate ?? { admit }).admit({
      text: judged,
      source: found.judgeAs ?? role,
      confidence: trigger.confidence,
      ...(standing && !found.judgeAs ? { standingSection: true } : {}),
      ...(modelKept ? { modelKept: true } : {}),
      ...(options.userModel ? { userModel: options.userModel } : {}),
    });
    if (!decision.admitted) continue;
    const text = normalizeStatement(found.statement, { thirdPerson: (found.judgeAs ?? role) === 'user' });
    const key = text.toLowerCase();
    // Spanish drops the subject: "Soy vegano.", "Cancelamos Sentry." are whole statements in two words.
    const minWords = looksSpanish(text) ? 2 : 3;
    if (seen.has(key) || (hasCjk(text) ? [...text].length < 4 : text.split(/\s+/).length < minWords)) continue;
    seen.add(key);
    // "We should start with X" is the team deciding; "setTheme should return an error" is a rule.
    const category =
      trigger.name === 'remember'
        ? detectCategory(text)
        : trigger.name === 'normative' && /^we should\b/i.test(text)
          ? 'decision'
          : trigger.category;
    // The agent agreeing ("You're right - X") says X back: a retelling of what the user just said, when that was kept.
    const restated = (role === 'user' ? saysRestated(whole) : said !== typed) ? { restated: true as const } : {};
    const untriggered = trigger.name === 'statement' || trigger.name === 'model' ? { untriggered: true as const } : {};
    candidates.push({
      text,
      category,
      importance: IMPORTANCE[category],
      confidence: trigger.confidence,
      trigger: trigger.name,
      order,
      ...restated,
      ...untriggered,
    });
  }
  const kept = candidates
    .sort((a, b) => b.importance - a.importance || b.confidence - a.confidence || a.order - b.order)
    .slice(0, maxPerTurn)
    .sort((a, b) => a.order - b.order);
  // "we binned bitrise. builds go through github actions now": the stored sentence keeps what it ended.
  const texts = sentences.map((s) => s.text);
  const told = role === 'user' ? withDroppedContext(kept, texts) : kept;
  return told.map(({ order: _order, ...candidate }) => candidate);
}
