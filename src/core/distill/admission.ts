import { redactSecrets } from '../write/redact.js';
import { detectPromptInjection } from '../write/injection.js';
import {
  isChatter,
  isContextDependent,
  isNarration,
  isQuestion,
  isRestatedInstruction,
  isStatusNoise,
  toolNoiseKind,
} from './noise-signals.js';
import { core, hasCjk, hasContentEvidence, hasExplanation, hasRuleMarker, isInjectedBlock, isShort, weightedLength } from './signals.js';

/**
 * The admission gate: rules that keep junk out of memory whatever produced the candidate (the
 * LLM extractor or rule-based capture). Safety checks run first (injected memory blocks, secrets,
 * prompt injection), then noise families, then size and confidence. Every rejection names one
 * reason, and a gate instance counts them for `strata distill` reports.
 */
export const ADMISSION_REASONS = [
  'empty',
  'injected-block',
  'secret',
  'prompt-injection',
  'tool-noise',
  'too-long',
  'chatter',
  'status-noise',
  'process-narration',
  'restated-instruction',
  'question',
  'context-dependent',
  'too-short',
  'no-content',
  'low-confidence',
] as const;
export type AdmissionReason = (typeof ADMISSION_REASONS)[number];

export interface AdmitOptions {
  text: string;
  /** The extractor's confidence in [0, 1]; absent for rule-based candidates that set none. */
  confidence?: number;
  /** Default 0.5. */
  minConfidence?: number;
  /** Longest admitted memory, in characters. Default 500 (memories are atomic). */
  maxChars?: number;
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
const IDENTITY_CHANGE = /\byou are now\b|\bpretend (?:to be|you are)\b|\bfrom now on,? you are\b|\bact as (?:an? )?(?:unrestricted|unfiltered|jailbroken|evil|different)\b|你现在(?:是|扮演|作为|成为)|你現在|从现在(?:开始|起)[，,]?你是/i;

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

const reject = (reason: AdmissionReason, detail?: string): AdmissionDecision => (detail ? { admitted: false, reason, detail } : { admitted: false, reason });

export function admit(options: AdmitOptions): AdmissionDecision {
  const text = options.text.normalize('NFC').trim();
  if (text === '') return reject('empty');
  if (isInjectedBlock(text)) return reject('injected-block');

  const redaction = redactSecrets(text);
  if (redaction.count > 0) return reject('secret', redaction.redactions.map((r) => r.kind).join(','));

  const injection = injectionReasons(text);
  if (injection) return reject('prompt-injection', injection);

  // A rule or an explanation around an error message makes it a lesson, so weak tool signals yield.
  const lenient = hasRuleMarker(text) || hasExplanation(text);
  const tool = toolNoiseKind(text, { lenient: true });
  if (tool === 'strong') return reject('tool-noise');

  if ([...text].length > (options.maxChars ?? DEFAULT_MAX_MEMORY_CHARS)) return reject('too-long');
  if (isChatter(text)) return reject('chatter');
  if (isStatusNoise(text)) return reject('status-noise');
  if (isNarration(text)) return reject('process-narration');
  if (isRestatedInstruction(text)) return reject('restated-instruction');
  if (toolNoiseKind(text, { lenient })) return reject('tool-noise');
  if (isQuestion(text)) return reject('question');
  if (isContextDependent(text)) return reject('context-dependent');
  if (weightedLength(text) < MIN_WEIGHTED_LENGTH || (!hasCjk(text) && core(text).split(' ').length < 2)) return reject('too-short');
  // Short text must show it states something; long text is given the benefit of the doubt.
  if (isShort(text) && !hasContentEvidence(text)) return reject('no-content');

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
