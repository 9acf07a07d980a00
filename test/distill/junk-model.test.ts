import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { junkModelTrainingRows, TRAINING_FILES } from '../../bench/lib/junk-model-rows.js';
import { createAdmissionGate } from '../../src/core/distill/admission.js';
import { USER_JUNK_MODEL_PATH, type LinearTextModel } from '../../src/core/distill/junk-model/model.js';
import { trainLinearTextModel } from '../../src/core/distill/junk-model/train.js';
import { shippedUserModelReading } from '../../src/core/distill/junk-model/user-judgement.js';
import { captureByRules } from '../../src/core/distill/rules.js';

/**
 * The admission gate's user-message model (src/core/distill/junk-model): the shipped file is what
 * its training script makes from the read sets, never from a set it is measured on, and the gate
 * uses it on the rule-capture path.
 */
const shipped = JSON.parse(readFileSync(USER_JUNK_MODEL_PATH, 'utf8')) as LinearTextModel;

describe('the shipped user-message junk model', () => {
  it('is trained on read sets only: no blind set, no held-out transcript', () => {
    expect(shipped.trainedOn.files).toEqual(TRAINING_FILES);
    for (const file of shipped.trainedOn.files) expect(file).not.toMatch(/blind|heldout|en-b\b|en-c\b|en-e\b|en-g\b|es-b\b|es-f\b/);
  });

  it('is what `npm run train:junk-model` makes from them now (retrain it after editing a set)', () => {
    const fresh = trainLinearTextModel({ rows: junkModelTrainingRows(), files: TRAINING_FILES });
    expect(fresh.trainedOn).toEqual(shipped.trainedOn);
    for (const block of ['words', 'chars'] as const) {
      expect(Object.keys(fresh.terms[block]).sort()).toEqual(Object.keys(shipped.terms[block]).sort());
      let drift = 0;
      for (const [term, [, coefficient]] of Object.entries(fresh.terms[block]))
        drift = Math.max(drift, Math.abs(coefficient - shipped.terms[block][term]![1]));
      expect(drift).toBeLessThan(1e-3);
    }
    expect(fresh.intercept).toBeCloseTo(shipped.intercept, 3);
  });
});

describe('the gate reads a user sentence last with the model', () => {
  const capture = (text: string) => {
    const gate = createAdmissionGate();
    return { learned: captureByRules({ text, role: 'user', gate }).map((c) => c.text), rejected: gate.counts().byReason };
  };

  it('keeps out a question the rules took for a change, and a retracted rule', () => {
    // Asked as a question, the rules see it without its mark; worded as no question, only the model does.
    expect(capture('what time is sunset in manchester today roughly')).toEqual({ learned: [], rejected: { question: 1 } });
    expect(capture('sunset in manchester today roughly what time')).toEqual({ learned: [], rejected: { 'junk-model': 1 } });
    expect(capture('a partir de ahora... bueno no, olvidalo')).toEqual({ learned: [], rejected: { 'junk-model': 1 } });
  });

  it('leaves a sentence that opens as an explicit standing statement to the checks, however task-like its words', () => {
    expect(capture('Always run the tests before pushing.').learned).toEqual(['Always run the tests before pushing.']);
    expect(capture('I prefer dark mode in every editor.').learned).toHaveLength(1);
  });

  it('learns a statement the model reads as kept that no trigger or fact word carried', () => {
    // Each was rejected as `no-content`, or found no trigger, before the model read them.
    const learned = (text: string) => captureByRules({ text, role: 'user' }).map((c) => [c.trigger, c.text]);
    expect(learned('en la uni estamos viendo programacion con Java, el profe deja todos los proyectos en java')).toEqual([
      ['model', 'En la uni estamos viendo programacion con Java, el profe deja todos los proyectos en java.'],
    ]);
    expect(learned('la rama principal se llama main, master no existe en nuestros repos')).toEqual([
      ['our-x-is', 'La rama principal se llama main, master no existe en nuestros repos.'],
    ]);
    expect(learned('in the native swift apps all networking is alamofire')).toEqual([
      ['statement', 'In the native swift apps all networking is alamofire.'],
    ]);
    // What it reads as chatter or a request stays out, trigger or not.
    expect(learned('thx that worked, can u check the logs next')).toEqual([]);
  });

  it('reads with the model and thresholds it is given (the --cv bench passes left-out models)', () => {
    const text = 'in the native swift apps all networking is alamofire';
    const shippedReading = shippedUserModelReading();
    expect(captureByRules({ text, role: 'user', userModel: shippedReading })).toHaveLength(1);
    expect(captureByRules({ text, role: 'user', userModel: { ...shippedReading, keepFloor: 1 } })).toEqual([]);
  });

  it('does not read Chinese, which it was not trained on', () => {
    expect(capture('以后提交前一定要先跑测试。').rejected['junk-model']).toBeUndefined();
  });
});
