import { hasCjk } from '../signals.js';
import { looksSpanish } from '../spanish.js';
import { assistantJunkModel, keepProbability, type LinearTextModel } from './model.js';

/**
 * Above this P(keep) an assistant's sentence that no lesson trigger caught is still a candidate
 * (the gate then judges it like any other). Chosen by leaving one training group out at a time
 * (`npm run bench -- admission --cv`): on the left-out written units 0.85 added 43 keep and 7 junk
 * units to what the triggers learn, and none from the real transcripts (0.8: 57 and 17, and one
 * real junk unit; 0.9: 31 and 6).
 */
export const ASSISTANT_KEEP_CEILING = 0.85;

/** The assistant-message model and its threshold; the shipped ones by default, others for validation (bench). */
export interface AssistantModelReading {
  model: LinearTextModel;
  keepCeiling: number;
}

export function shippedAssistantModelReading(): AssistantModelReading {
  return { model: assistantJunkModel(), keepCeiling: ASSISTANT_KEEP_CEILING };
}

/**
 * A sentence of an assistant message the assistant-message model reads as a lasting fact or lesson
 * about the user's project or life, in plain words no trigger knows ("The dbt jobs run on the
 * `TRANSFORM_WH` warehouse, which auto-suspends after 60 seconds."). It was trained on English
 * only, so other languages are not read by it.
 */
export function assistantReadsAsKept(sentence: string, reading: AssistantModelReading = shippedAssistantModelReading()): boolean {
  const text = sentence.trim();
  return !hasCjk(text) && !looksSpanish(text) && keepProbability(reading.model, text) > reading.keepCeiling;
}
