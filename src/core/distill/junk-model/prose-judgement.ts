import { hasCjk } from '../signals.js';
import { looksSpanish } from '../spanish.js';
import { assistantJunkModel, keepProbability, summaryJunkModel, type LinearTextModel } from './model.js';

/**
 * Above this P(keep) a sentence of an assistant message or of a compaction summary that no trigger
 * (and no standing section heading) caught is still a candidate; the gate then judges it like any
 * other. Chosen by leaving one training group out at a time (`npm run bench -- admission --cv`):
 * - assistant: on the left-out written units 0.85 added 43 keep and 7 junk units to what the
 *   triggers learn, and none from the real transcripts (0.8: 57 and 17, and one real junk unit;
 *   0.9: 31 and 6);
 * - summary: on the left-out summaries of the read set 0.85 added 20 keep units and no junk unit
 *   (0.8: 24 and 1; 0.7: 28 and 4).
 */
export const PROSE_KEEP_CEILING = { assistant: 0.85, summary: 0.85 } as const;

export type ProseRole = keyof typeof PROSE_KEEP_CEILING;

/** A model and its threshold; the shipped ones by default, others for validation (bench). */
export interface ProseModelReading {
  model: LinearTextModel;
  keepCeiling: number;
}

export function shippedProseModelReading(role: ProseRole): ProseModelReading {
  return { model: role === 'assistant' ? assistantJunkModel() : summaryJunkModel(), keepCeiling: PROSE_KEEP_CEILING[role] };
}

/**
 * A sentence the agent wrote (an assistant message, a compaction summary) that its model reads as a
 * lasting fact or lesson about the user's project or life, in plain words no trigger knows ("The dbt
 * jobs run on the `TRANSFORM_WH` warehouse, which auto-suspends after 60 seconds."). The models
 * were trained on English only, so other languages are not read.
 */
export function proseReadsAsKept(sentence: string, role: ProseRole, reading?: ProseModelReading): boolean {
  const text = sentence.trim();
  if (hasCjk(text) || looksSpanish(text)) return false;
  const { model, keepCeiling } = reading ?? shippedProseModelReading(role);
  return keepProbability(model, text) > keepCeiling;
}
