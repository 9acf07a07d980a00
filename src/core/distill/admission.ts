import { redactSecrets } from '../write/redact.js';
import { detectPromptInjection } from '../write/injection.js';
import {
  isChatter,
  isContextDependent,
  isNarration,
  isQuestion,
  isPromptRestatement,
  isStatusNoise,
  isTaskRequest,
  toolNoiseKind,
} from './noise-signals.js';
import { core, hasCjk, hasExplanation, hasRuleMarker, isInjectedBlock, weightedLength } from './signals.js';
import { hasLesson } from './durable-evidence.js';
import { englishUserVeto, foldInformal, statesUserChange } from './english-user.js';
import { hasSpanishUserEvidence, looksSpanish, spanishUserVeto } from './spanish.js';
import { foldChatEs } from './spanish-user.js';
import { judgeSpanishMemory, statesSpanishLesson } from './spanish-llm.js';
import { isDatedLifeEvent, isSubjectlessFact, nowMarksLastingChange } from './extractor-english.js';
import { extractorShapeRejection, readsAsExtractorFact } from './extractor-output.js';
import { sourceRejection, stripPreamble } from './source-policy.js';
import { quotedWords } from './summary-voice.js';
import { isChangeLog, isFileListing, isHostNoise, isLeadIn, isMarkedStatus } from './structure-signals.js';
import { isArtefactEvent, isPassingState, isSessionEvent, isThirdPersonRequest } from './task-signals.js';
import { onlyNowSaysItPasses } from './lasting-now.js';
import { pinsVersionNow } from './version-now.js';
import { isCommonKnowledge, isOngoingActivity, isResearchBrief, isRunOutcome, isSessionRecap } from './episode-signals.js';
import { isPastWorkEvent } from './past-events.js';
import { unsafeImperativeKind } from './unsafe-imperative.js';
import { readsAsLastingChange, userModelVeto, type UserModelReading } from './junk-model/user-judgement.js';
import { citesOnlyAgent, evidenceRejection, type MemoryEvidence } from './grounding.js';
import { namesAnArtifact } from './grounding-words.js';
import { isStandingInstruction, labelledNoteSentence, withoutConnective } from './note-shapes.js';

/**
 * The admission gate: rules that keep junk out of memory whatever produced the candidate (the
 * LLM extractor or rule-based capture). It judges content, not voice: "The user prefers X" and
 * "I prefer X" are both kept, "The user asked the assistant to fix X" and "fix X" are both task
 * requests. Safety checks run first (injected memory blocks, secrets, prompt injection), then the
 * noise families, then evidence of durable content, which depends on where the text comes from:
 * assistant prose and compaction summaries are mostly about the task at hand, so there the gate
 * asks for a rule, a lesson or a standing fact. Every rejection names one reason, and a gate
 * instance counts them for `strata distill` reports.
 */
export const ADMISSION_REASONS = [
  'empty',
  'injected-block',
  'secret',
  'prompt-injection',
  'host-noise',
  'tool-noise',
  'too-long',
  'chatter',
  'status-noise',
  'process-narration',
  'fragment',
  'restated-instruction',
  'task-request',
  'session-event',
  'passing-state',
  'question',
  'common-knowledge',
  'context-dependent',
  'too-short',
  'no-content',
  'low-confidence',
  'junk-model',
  'ungrounded',
] as const;
export type AdmissionReason = (typeof ADMISSION_REASONS)[number];

/**
 * Where a candidate comes from: a sentence of a user message, of an assistant message, of a
 * compaction summary, or a memory an LLM extractor wrote. Default `llm`.
 */
export type AdmissionSource = 'user' | 'assistant' | 'summary' | 'llm';

export interface AdmitOptions {
  text: string;
  source?: AdmissionSource;
  /** The extractor's confidence in [0, 1]; absent for rule-based candidates that set none. */
  confidence?: number;
  /** Default 0.5. */
  minConfidence?: number;
  /** Longest admitted memory, in characters. Default 500 (memories are atomic). */
  maxChars?: number;
  /**
   * A summary line under a heading that files lasting things ("Constraints & Preferences", "Key
   * Decisions", "Critical Context"): the heading stands for the rule or fact word a bare line lacks.
   */
  standingSection?: boolean;
  /**
   * A user's sentence the user-message model (junk-model/) read as worth keeping with confidence:
   * the model stands for the rule or fact word it may lack (no `no-content`); every other check runs.
   */
  modelKept?: boolean;
  /** The user-message model and its thresholds; default the shipped ones (junk-model/user-judgement.ts). */
  userModel?: UserModelReading;
  /**
   * Extractor output only: the conversation the memory was written from and the messages it cites.
   * With it, a memory the user's words do not bear out (grounding.ts) is rejected as `ungrounded`.
   */
  evidence?: MemoryEvidence;
}

export interface AdmissionDecision {
  admitted: boolean;
  reason?: AdmissionReason;
  /** What fired, for `--explain` style output (redaction kinds, injection heuristics). */
  detail?: string;
}

export const DEFAULT_MIN_CONFIDENCE = 0.5;
export const DEFAULT_MAX_MEMORY_CHARS = 500;
/** Below this weighted length (CJK characters count double) a text carries no reusable fact. */
const MIN_WEIGHTED_LENGTH = 6;

// `detectPromptInjection` flags "from now on, you should ..." as role reassignment; from a user
// that is an ordinary standing rule. Only a real identity change rejects on that heuristic alone.
const IDENTITY_CHANGE =
  /\byou are now\b|\bpretend (?:to be|you are)\b|\bfrom now on,? you are\b|\bact as (?:an? )?(?:unrestricted|unfiltered|jailbroken|evil|different)\b|你现在(?:是|扮演|作为|成为)|你現在|从现在(?:开始|起)[，,]?你是/i;

// Memory poisoning: a stored "rule" that makes the assistant put a link or promotion into all its
// answers. Ordinary rules name a kind of artefact ("PR descriptions"), not every answer.
const POISONING =
  /\b(?:every|all|each|any) (?:of (?:your|my) )?(?:answers?|responses?|replies|messages?|outputs?)\b[^\n]{0,80}(?:https?:\/\/|www\.|\b[a-z0-9-]+\.(?:ly|gl|co|io|xyz|top)\/|\blinks?\b)|(?:https?:\/\/|www\.|\blinks?\b)[^\n]{0,80}\b(?:every|all|each|any) (?:of (?:your|my) )?(?:answers?|responses?|replies|messages?|outputs?)\b|(?:每次|所有|每个|每条)(?:回答|回复|答复|消息)[^。\n]{0,30}(?:链接|网址|https?:)|(?:链接|网址|https?:)[^。\n]{0,30}(?:每次|所有|每个|每条)(?:回答|回复|答复|消息)/i;

/** The injection heuristics that reject `text` (comma-separated), or undefined when it looks clean. */
export function injectionReasons(text: string): string | undefined {
  const injection = detectPromptInjection(text);
  if (injection.suspicious) {
    const onlyRole = injection.reasons.every((r) => r === 'role-reassignment');
    if (!onlyRole || IDENTITY_CHANGE.test(text)) return injection.reasons.join(',');
  }
  return POISONING.test(text) ? 'link-in-every-answer' : undefined;
}

const reject = (reason: AdmissionReason, detail?: string): AdmissionDecision =>
  detail ? { admitted: false, reason, detail } : { admitted: false, reason };

/** A sentence that tells someone to do something (imperative, modal or standing-rule wording). */
const DIRECTIVE =
  /\b(?:always|never|must|should|make sure|every ?time|before (?:any|every|each)|whenever|from now on|you (?:need|have) to|don'?t forget|remember to|wants? (?:the assistant|you|it) to|asked (?:the assistant|you) to)\b|^(?:please\s+)?(?:run|execute|exec|install|download|curl|wget|disable|turn off|bypass|skip|send|upload|post|email|forward|copy|pipe|source|chmod|sudo|rm|use)\b|(?:总是|每次|永远|必须|以后|务必)|^(?:请)?(?:执行|运行|关闭|禁用|发送|上传)/i;

/** The leading verb of a change-log line, removed to judge what follows it. */
const CHANGE_VERB = /^\S+\s+/;

/** A log line: "[theme] Detected ...", "+314 - Tips", "↑880 ↓68k R29394k", "WRN Invalid entry", logcat. */
function isLogLine(text: string): boolean {
  if (/^\[[\w .-]{2,20}\]\s/.test(text) && !/^\[(?:image|screenshot|file)\]/i.test(text)) return true;
  if (/^[+-]\d+\s|^\d{1,4}\s+-\s+\S|^(?:WRN|INF|ERR|DBG|WARN|INFO|ERROR|DEBUG)\b/.test(text)) return true;
  // Android logcat ("E/AndroidRuntime: FATAL EXCEPTION: main").
  if (/^[VDIWEF]\/[\w.$-]+(?:\(\s*\d+\))?:\s/.test(text)) return true;
  // Mostly numbers and symbols: a status bar or a table row (CJK text has too few spaces to judge).
  if (hasCjk(text)) return false;
  // Code quoted in backticks is a noun of the sentence around it ("`a.conf` sets `b`").
  const tokens = text
    .replace(/`[^`\n]+`/g, 'code')
    .split(/\s+/)
    .filter(Boolean);
  const wordy = tokens.filter((w) => /^[A-Za-z\u3400-\u9fff][A-Za-z'\u3400-\u9fff-]*[.,!?:;]?$/.test(w)).length;
  return tokens.length >= 4 && wordy / tokens.length < 0.34;
}

/** A memory about a credential whose value was redacted upstream ("the password is REDACTED", "DB_PASS=REDACTED"). */
const CREDENTIAL_MENTION =
  /\b(?:password|passwd|passphrase|pin|cookie|session id|token|api[ -]?key|secret|credential|private key)s?\b[^.\n]{0,40}?(?:\bis\b|\bare\b|=|:)\s*[[(]?REDACTED|\b[A-Z0-9_]*(?:PASS|PASSWORD|PASSWD|PWD|TOKEN|SECRET|API_?KEY|COOKIE)\s*[=:]\s*[[(]?REDACTED|密码(?:是|为|：|:)\s*\S/i;

export function admit(options: AdmitOptions): AdmissionDecision {
  const decision = judge(options);
  if (decision.admitted || (options.source ?? 'llm') !== 'llm') return decision;
  // A memory-file note drops its verb ("ISP: Starlink"): judged again as the sentence it stands for.
  const sentence = labelledNoteSentence(options.text, decision);
  return sentence ? judge({ ...options, text: sentence }) : decision;
}

/**
 * The words judged: a user's Spanish chat spelt out; elsewhere the claim without its preamble ("I can
 * see that the User model only has id"), and for a note without the connective that ties it to the
 * one before ("Also runs a CachyOS machine").
 */
function claimOf(raw: string, source: AdmissionSource): string {
  if (source === 'user') return !hasCjk(raw) && looksSpanish(raw) ? foldChatEs(raw) : raw;
  const claim = stripPreamble(raw);
  return source === 'llm' ? withoutConnective(claim) : claim;
}

function judge(options: AdmitOptions): AdmissionDecision {
  const source = options.source ?? 'llm';
  // Typographic apostrophes (macOS input, Codex output) would hide "don’t", "I’ll", "can’t" from every pattern.
  const raw = options.text
    .normalize('NFC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .trim();
  if (raw === '') return reject('empty');
  if (isInjectedBlock(raw)) return reject('injected-block');

  const redaction = redactSecrets(raw);
  if (redaction.count > 0) return reject('secret', redaction.redactions.map((r) => r.kind).join(','));
  if (CREDENTIAL_MENTION.test(raw)) return reject('secret', 'credential-mention');

  const injection = injectionReasons(raw);
  if (injection) return reject('prompt-injection', injection);
  // Issue 13.6: an instruction to run something fetched, switch off a safeguard or send data away
  // is never kept as a rule, whoever wrote it.
  const unsafe = unsafeImperativeKind(raw);
  if (unsafe && DIRECTIVE.test(raw)) return reject('prompt-injection', `unsafe-imperative:${unsafe}`);
  if (isHostNoise(raw)) return reject('host-noise');
  // A summary quoting the user ('Aisha: "never ..."') is judged as the user's own message.
  const quoted = source === 'summary' ? quotedWords(raw) : undefined;
  if (quoted !== undefined) {
    const asUser = admit({ ...options, text: quoted, source: 'user' });
    if (asUser.admitted) return asUser;
  }
  const said = claimOf(raw, source);
  // English typed without apostrophes ("dont ever", "im vegan") reads as spelt out.
  const english = source === 'user' && !hasCjk(said) && !looksSpanish(said);
  const text = english ? foldInformal(said) : said;

  // A rule or an explanation around an error message makes it a lesson, so weak tool signals yield.
  const lenient = hasRuleMarker(text) || hasExplanation(text) || hasLesson(text);
  const tool = toolNoiseKind(text, { lenient: true });
  if (tool === 'strong' || isLogLine(text)) return reject('tool-noise');

  if ([...text].length > (options.maxChars ?? DEFAULT_MAX_MEMORY_CHARS)) return reject('too-long');
  // Spanish statements are judged by spanish.ts (the detectors below read English); questions stay out.
  if (source === 'user' && !hasCjk(text) && looksSpanish(text)) {
    const veto = spanishUserVeto(text);
    if (veto) return reject(veto.reason, veto.detail);
  }
  if (source === 'user' && hasSpanishUserEvidence(text) && !isQuestion(text)) return userDecision(raw, options);
  // Extractor output in Spanish: its events, requests and passing states are read in spanish-llm.ts.
  const spanishMemory = source === 'llm' ? judgeSpanishMemory(text) : undefined;
  if (spanishMemory?.reason) return reject(spanishMemory.reason, spanishMemory.detail);
  if (english) {
    const veto = englishUserVeto(text);
    if (veto) return reject(veto.reason, veto.detail);
  }
  if (isChatter(text)) return reject('chatter');
  if (isStatusNoise(text) || isMarkedStatus(text)) return reject('status-noise');
  if (isNarration(text) && !(source === 'llm' && isDatedLifeEvent(text))) return reject('process-narration');
  // Summaries and assistants list what was done without a subject; a lesson attached makes it one.
  if (
    source !== 'user' &&
    isChangeLog(text) &&
    !hasLesson(text.replace(CHANGE_VERB, '')) &&
    !(source === 'llm' && (isDatedLifeEvent(text) || hasRuleMarker(text)))
  )
    return reject('process-narration', 'change-log');
  if (isLeadIn(text) || isFileListing(text)) return reject('fragment');
  if (isPromptRestatement(text)) return reject('restated-instruction');
  if ((isTaskRequest(text) || isThirdPersonRequest(text)) && !(source === 'llm' && isStandingInstruction(text)))
    return reject('task-request');
  if (isSessionEvent(text) || (source !== 'user' && isArtefactEvent(text))) return reject('session-event');
  if (isSessionRecap(text)) return reject('session-event', 'session-recap');
  // The English passing-state words misread Spanish ("todo" is not a to-do); spanish-llm.ts read those.
  // A user's "now" or "anymore" is read by the user-message model when nothing else says it passes.
  const lastingChange = () => statesUserChange(text) || (onlyNowSaysItPasses(text) && readsAsLastingChange(raw, options.userModel));
  const lastingForExtractor = source === 'llm' && nowMarksLastingChange(text) && !isPassingState(text.replace(/\bnow\b/gi, ''));
  const pinnedNow = english && pinsVersionNow(text);
  if (
    (isPassingState(text) && !spanishMemory && !(english && lastingChange()) && !lastingForExtractor && !pinnedNow) ||
    isOngoingActivity(text)
  )
    return reject('passing-state');
  if (isRunOutcome(text)) return reject('status-noise', 'run-outcome');
  if (isResearchBrief(text)) return reject('task-request', 'research-brief');
  // Extractor output only: assistant prose and summaries state lessons in the past ("X failed on Y").
  if (source === 'llm' && !readsAsExtractorFact(text) && isPastWorkEvent(text)) return reject('session-event', 'past-work-event');
  // Extractor output in English or Chinese: its own reports, subjectless work, plans, requests, this task's things.
  const shape = source === 'llm' && !spanishMemory ? extractorShapeRejection(text) : undefined;
  if (shape) return reject(shape.reason, shape.detail);
  if (toolNoiseKind(text, { lenient })) return reject('tool-noise');
  if (isQuestion(text)) return reject('question');
  if (isContextDependent(text)) return reject('context-dependent');
  if (isCommonKnowledge(text, { fromUser: source === 'user' })) return reject('common-knowledge');
  if (weightedLength(text) < MIN_WEIGHTED_LENGTH || (!hasCjk(text) && core(text).split(' ').length < 2)) return reject('too-short');
  // A Spanish statement with a subject and a verb: the English "no verb" and "no content" checks do not read it.
  const bySource =
    spanishMemory?.statement || (source === 'llm' && !spanishMemory && readsAsExtractorFact(text))
      ? undefined
      : sourceRejection(text, source, {
          standing: options.standingSection === true,
          modelKept: options.modelKept === true,
        });
  if (bySource) return reject(bySource.reason, bySource.detail);

  if (source === 'llm' && options.evidence) {
    const ungrounded = evidenceRejection(raw, options.evidence);
    if (ungrounded) return reject('ungrounded', ungrounded.detail);
    // Extractors turn the agent's narration, diagnoses and textbook facts into memories; what only
    // the agent said must state a rule, a lesson or a standing fact, as a sentence of its prose must.
    // A fact naming a file, an identifier or a version of the project stands: in real sessions the
    // agent is often the only one to say where things live (bench: the real-transcript citations).
    if (citesOnlyAgent(options.evidence)) {
      const asAgent = spanishMemory
        ? statesSpanishLesson(text)
          ? undefined
          : { reason: 'no-content' as const }
        : sourceRejection(text, 'assistant');
      if (asAgent && !(asAgent.reason === 'no-content' && (namesAnArtifact(text) || isSubjectlessFact(text))))
        return reject('ungrounded', `only the agent said it: ${asAgent.reason}`);
    }
  }
  return source === 'user' ? userDecision(raw, options) : confidenceDecision(options);
}

/** What passed every check in a user's words is read last by the user-message model (junk-model/). */
function userDecision(text: string, options: AdmitOptions): AdmissionDecision {
  const veto = userModelVeto(text, options.userModel);
  return veto ? reject('junk-model', veto.detail) : confidenceDecision(options);
}

function confidenceDecision(options: AdmitOptions): AdmissionDecision {
  const minConfidence = options.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  if (options.confidence !== undefined && options.confidence < minConfidence) {
    return reject('low-confidence', `${options.confidence} < ${minConfidence}`);
  }
  return { admitted: true };
}

export interface AdmissionCounts {
  admitted: number;
  rejected: number;
  byReason: Partial<Record<AdmissionReason, number>>;
}

export interface AdmissionGate {
  admit(options: AdmitOptions): AdmissionDecision;
  /** A copy of the counts so far. */
  counts(): AdmissionCounts;
  reset(): void;
}

/** A gate with fixed defaults that counts its decisions by reason. */
export function createAdmissionGate(defaults: { minConfidence?: number; maxChars?: number } = {}): AdmissionGate {
  let counts: AdmissionCounts = { admitted: 0, rejected: 0, byReason: {} };
  return {
    admit(options) {
      const decision = admit({
        ...options,
        minConfidence: options.minConfidence ?? defaults.minConfidence,
        maxChars: options.maxChars ?? defaults.maxChars,
      });
      if (decision.admitted) counts.admitted++;
      else {
        counts.rejected++;
        const reason = decision.reason ?? 'empty';
        counts.byReason[reason] = (counts.byReason[reason] ?? 0) + 1;
      }
      return decision;
    },
    counts: () => ({ admitted: counts.admitted, rejected: counts.rejected, byReason: { ...counts.byReason } }),
    reset() {
      counts = { admitted: 0, rejected: 0, byReason: {} };
    },
  };
}
