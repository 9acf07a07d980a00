export {
  admit,
  createAdmissionGate,
  injectionReasons,
  ADMISSION_REASONS,
  DEFAULT_MIN_CONFIDENCE,
  DEFAULT_MAX_MEMORY_CHARS,
  type AdmissionReason,
  type AdmissionDecision,
  type AdmissionCounts,
  type AdmissionGate,
  type AdmitOptions,
  type AdmissionSource,
} from './admission.js';
export { captureByRules, detectCategory, splitSentences, type RuleCandidate, type CaptureByRulesOptions } from './rules.js';
export { runDistill, type DistillOptions, type DistillReport, type DistillCaps, type DistillError } from './run.js';
export { DistillScheduler, type DistillSchedulerOptions } from './scheduler.js';
export { BudgetTracker, DEFAULT_BUDGET, type DistillBudget } from './budget.js';
export { DistillCursor, messageKey, type L0Message } from './l0-source.js';
export { extractWithLlm, extractByRules, extractionSchema, type Candidate } from './extract.js';
export { chunkMessages, packChunks, renderBatch, shapeContent, EXTRACTION_SYSTEM_PROMPT } from './prompt.js';
export { countTokens, loadTokenizer } from './tokens.js';
export { normalizeStatement } from './normalize-statement.js';
export { unsafeImperativeKind, type UnsafeKind } from './unsafe-imperative.js';
export {
  reconcile,
  findSimilar,
  decisionSchema,
  DECISION_KINDS,
  type Decision,
  type DecisionKind,
  type SimilarMemory,
  type ReconcileResult,
} from './reconcile.js';
export { applyDecisions, type AppliedDecision } from './apply.js';
