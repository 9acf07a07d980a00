import type { AdmissionReason } from './admission.js';
import { chineseMemoryRejection, readsAsChineseStandingFact } from './extractor-chinese.js';
import { englishMemoryRejection, readsAsStandingFact } from './extractor-english.js';

/**
 * The gate's reading of the shape of a memory an extractor wrote, in English or Chinese (Spanish is
 * read by spanish-llm.ts): junk by its shape (the agent's own report, subjectless work, plans,
 * requests, this task's things), or a standing fact whose shape the short-text checks misread.
 */

/**
 * Extractor output is in the third person; "I built the script, updated the hook and pushed it" is
 * the agent's own report of the work copied over, not a memory.
 */
const AGENT_SAYS_DONE =
  /^I\s+(?:(?:also|then|just|first|finally|have|'ve)\s+)?(?:built|updated|added|pushed|fixed|ran|created|wrote|implemented|refactored|installed|deployed|committed|tested|removed|edited|modified|set up|configured|renamed|deleted|reverted|merged|patched|rewrote|cleaned up|checked|verified|looked)\b/;

export function extractorShapeRejection(text: string): { reason: AdmissionReason; detail: string } | undefined {
  if (AGENT_SAYS_DONE.test(text)) return { reason: 'process-narration', detail: 'first-person work' };
  return englishMemoryRejection(text) ?? chineseMemoryRejection(text);
}

/** A terse standing fact an extractor wrote ("Is vegetarian.", "乳糖不耐受"): it needs no fact word. */
export function readsAsExtractorFact(text: string): boolean {
  return readsAsStandingFact(text) || readsAsChineseStandingFact(text);
}
