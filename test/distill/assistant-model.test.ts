import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSISTANT_TRAINING_FILES, assistantModelTrainingRows } from '../../bench/lib/junk-model-rows.js';
import { shippedAssistantModelReading } from '../../src/core/distill/junk-model/assistant-judgement.js';
import { ASSISTANT_JUNK_MODEL_PATH, keepProbability, type LinearTextModel } from '../../src/core/distill/junk-model/model.js';
import { trainLinearTextModel } from '../../src/core/distill/junk-model/train.js';
import { captureByRules } from '../../src/core/distill/rules.js';

/**
 * The assistant-message model (src/core/distill/junk-model/assistant-judgement.ts): the shipped file
 * is what the training script makes from the read sets, never from a set it is measured on, and
 * offline capture takes an assistant's sentence it reads as kept when the gate admits it too.
 */
const shipped = JSON.parse(readFileSync(ASSISTANT_JUNK_MODEL_PATH, 'utf8')) as LinearTextModel;

describe('the shipped assistant-message model', () => {
  it('is trained on read sets only: no blind set, no held-out transcript', () => {
    expect(shipped.trainedOn.files).toEqual(ASSISTANT_TRAINING_FILES);
    for (const file of shipped.trainedOn.files) expect(file).not.toMatch(/blind|heldout/);
  });

  it('is what `npm run train:junk-model` makes from them now (retrain it after editing a set)', () => {
    const fresh = trainLinearTextModel({ rows: assistantModelTrainingRows(), files: ASSISTANT_TRAINING_FILES });
    expect(fresh.trainedOn).toEqual(shipped.trainedOn);
    expect(fresh.intercept).toBeCloseTo(shipped.intercept, 3);
    for (const block of ['words', 'chars'] as const)
      expect(Object.keys(fresh.terms[block]).length).toBe(Object.keys(shipped.terms[block]).length);
  });
});

describe('offline capture reads an assistant message with the model', () => {
  const reading = shippedAssistantModelReading();
  const capture = (text: string, keepCeiling = reading.keepCeiling) =>
    captureByRules({ text, role: 'assistant', assistantModel: { ...reading, keepCeiling } }).map((c) => [c.trigger, c.category, c.text]);

  it('learns a lasting fact no trigger knows, and only while the model reads it above the ceiling', () => {
    const fact = 'Your home server runs Debian 12 with the media library on the ZFS pool `media`.';
    expect(keepProbability(reading.model, fact)).toBeGreaterThan(reading.keepCeiling);
    expect(capture(fact)).toEqual([['model', 'fact', fact]]);
    expect(capture(fact, 1)).toEqual([]);
  });

  it('leaves out narration, status and plans however they are worded', () => {
    for (const junk of [
      'Perfect! Now let me update the tests to match the new schema.',
      '✅ All 42 tests pass and the build is green.',
      "I'll restart the worker and watch the logs for a few minutes.",
      'Great question — the difference is mostly about how the cache is invalidated.',
    ])
      expect(capture(junk)).toEqual([]);
  });
});
