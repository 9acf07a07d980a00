import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ASSISTANT_TRAINING_FILES,
  SUMMARY_TRAINING_FILES,
  assistantModelTrainingRows,
  summaryModelTrainingRows,
} from '../../bench/lib/junk-model-rows.js';
import { shippedProseModelReading } from '../../src/core/distill/junk-model/prose-judgement.js';
import {
  ASSISTANT_JUNK_MODEL_PATH,
  SUMMARY_JUNK_MODEL_PATH,
  keepProbability,
  type LinearTextModel,
} from '../../src/core/distill/junk-model/model.js';
import { trainLinearTextModel, type LabelledText } from '../../src/core/distill/junk-model/train.js';
import { captureByRules } from '../../src/core/distill/rules.js';

/**
 * The assistant-message and summary models (src/core/distill/junk-model/prose-judgement.ts): each
 * shipped file is what the training script makes from the read sets, never from a set it is
 * measured on, and offline capture takes a sentence its model reads as kept when the gate admits it too.
 */
const models: Array<[string, string, string[], () => LabelledText[]]> = [
  ['assistant', ASSISTANT_JUNK_MODEL_PATH, ASSISTANT_TRAINING_FILES, assistantModelTrainingRows],
  ['summary', SUMMARY_JUNK_MODEL_PATH, SUMMARY_TRAINING_FILES, summaryModelTrainingRows],
];

describe.each(models)('the shipped %s model', (_role, path, files, rows) => {
  const shipped = JSON.parse(readFileSync(path, 'utf8')) as LinearTextModel;

  it('is trained on read sets only: no blind set, no held-out transcript', () => {
    expect(shipped.trainedOn.files).toEqual(files);
    for (const file of shipped.trainedOn.files) expect(file).not.toMatch(/blind|heldout|summary-c\b/);
  });

  it('is what `npm run train:junk-model` makes from them now (retrain it after editing a set)', () => {
    const fresh = trainLinearTextModel({ rows: rows(), files });
    expect(fresh.trainedOn).toEqual(shipped.trainedOn);
    expect(fresh.intercept).toBeCloseTo(shipped.intercept, 3);
    for (const block of ['words', 'chars'] as const)
      expect(Object.keys(fresh.terms[block]).length).toBe(Object.keys(shipped.terms[block]).length);
  });
});

describe('offline capture reads what the agent wrote with its model', () => {
  const capture = (text: string, role: 'assistant' | 'summary', keepCeiling?: number) => {
    const reading = shippedProseModelReading(role);
    return captureByRules({ text, role, proseModel: { ...reading, keepCeiling: keepCeiling ?? reading.keepCeiling } }).map((c) => [
      c.trigger,
      c.category,
      c.text,
    ]);
  };

  it('learns a lasting fact no trigger knows, and only while the model reads it above the ceiling', () => {
    const fact = 'Your home server runs Debian 12 with the media library on the ZFS pool `media`.';
    const { model, keepCeiling } = shippedProseModelReading('assistant');
    expect(keepProbability(model, fact)).toBeGreaterThan(keepCeiling);
    expect(capture(fact, 'assistant')).toEqual([['model', 'fact', fact]]);
    expect(capture(fact, 'assistant', 1)).toEqual([]);
  });

  it('learns a compaction summary line that names no rule and sits under no standing heading', () => {
    const line = 'Local Postgres for this repo runs on port 5433 because 5432 is taken by Homebrew.';
    expect(capture(line, 'summary')).toEqual([['model', 'lesson', line]]);
    expect(capture(line, 'summary', 1)).toEqual([]);
  });

  it('leaves out narration, status and plans however they are worded', () => {
    for (const junk of [
      'Perfect! Now let me update the tests to match the new schema.',
      '✅ All 42 tests pass and the build is green.',
      "I'll restart the worker and watch the logs for a few minutes.",
      'Great question — the difference is mostly about how the cache is invalidated.',
    ]) {
      expect(capture(junk, 'assistant')).toEqual([]);
      expect(capture(junk, 'summary')).toEqual([]);
    }
  });
});
