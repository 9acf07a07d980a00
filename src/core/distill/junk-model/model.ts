import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StrataError } from '../../../errors/index.js';
import { FEATURE_BLOCKS, termCounts, termWeight, type FeatureBlock } from './features.js';

/**
 * A linear model over TF-IDF features (features.ts) that gives the probability that a sentence is
 * worth remembering. Three are shipped, for user messages, assistant messages and compaction
 * summaries, each trained (`npm run train:junk-model`, train.ts) on the labelled text of the read
 * benchmark sets and the tune part of the real-transcript set, never on the blind sets or the
 * held-out transcripts, and stored as data in `models/`.
 */
export interface LinearTextModel {
  version: 1;
  /** What it was trained on, and with which settings (for the record). */
  trainedOn: { files: string[]; rows: number; keep: number; c: number; minDocumentFrequency: number };
  intercept: number;
  /** Per block: term → [idf, coefficient]. */
  terms: Record<FeatureBlock, Record<string, [number, number]>>;
}

/** P(keep) for `text`: the logistic of the weighted, per-block normalised features. */
export function keepProbability(model: LinearTextModel, text: string): number {
  const counts = termCounts(text);
  let z = model.intercept;
  for (const block of FEATURE_BLOCKS) {
    const known = model.terms[block];
    let norm = 0;
    let dot = 0;
    for (const [term, count] of counts[block]) {
      const entry = known[term];
      if (entry === undefined) continue;
      const weight = termWeight(count, entry[0]);
      norm += weight * weight;
      dot += weight * entry[1];
    }
    if (norm > 0) z += dot / Math.sqrt(norm);
  }
  return 1 / (1 + Math.exp(-z));
}

/** The shipped model's file, found from src/ and dist/ alike (both sit three levels below the package). */
export const USER_JUNK_MODEL_PATH = fileURLToPath(new URL('../../../../models/user-junk-model.json', import.meta.url));

export const ASSISTANT_JUNK_MODEL_PATH = fileURLToPath(new URL('../../../../models/assistant-junk-model.json', import.meta.url));
export const SUMMARY_JUNK_MODEL_PATH = fileURLToPath(new URL('../../../../models/summary-junk-model.json', import.meta.url));

let userModel: LinearTextModel | undefined;
let assistantModel: LinearTextModel | undefined;
let summaryModel: LinearTextModel | undefined;

/** The shipped user-message model, read once. */
export function userJunkModel(): LinearTextModel {
  userModel ??= readLinearTextModel(USER_JUNK_MODEL_PATH);
  return userModel;
}

/** The shipped assistant-message model, read once (only when a sentence no trigger caught is read). */
export function assistantJunkModel(): LinearTextModel {
  assistantModel ??= readLinearTextModel(ASSISTANT_JUNK_MODEL_PATH);
  return assistantModel;
}

/** The shipped compaction-summary model, read once (only when a sentence no trigger caught is read). */
export function summaryJunkModel(): LinearTextModel {
  summaryModel ??= readLinearTextModel(SUMMARY_JUNK_MODEL_PATH);
  return summaryModel;
}

/** Reads a model file (the shipped ones are read once by the functions above). */
export function readLinearTextModel(path: string): LinearTextModel {
  try {
    const model = JSON.parse(readFileSync(path, 'utf8')) as Partial<LinearTextModel>;
    if (model.version !== 1 || typeof model.intercept !== 'number' || !model.terms?.words || !model.terms.chars)
      throw new Error(`not a version 1 model`);
    return model as LinearTextModel;
  } catch (cause) {
    throw new StrataError({
      code: 'NOT_FOUND',
      message: `The admission gate's model ${path} is missing or unreadable: reinstall strata-memory, or run \`npm run train:junk-model\` in a source checkout.`,
      cause,
      details: { path },
    });
  }
}
