export {
  normalizeText,
  normalizeForHash,
  contentHash,
  validateMemoryText,
  countChars,
  DEFAULT_MAX_CHARS,
  type ValidateMemoryTextOptions,
} from './normalize.js';
export { redactSecrets, containsSecrets, type Redaction, type RedactionResult } from './redact.js';
export { detectPromptInjection, INJECTION_TAG, type InjectionCheck } from './injection.js';
export { newId, isValidId, idTimestamp } from './ids.js';
