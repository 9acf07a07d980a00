/** Trains the user-message, assistant-message and summary junk models and writes them to models/. Run: `npm run train:junk-model`. */
import { writeFileSync } from 'node:fs';
import { ASSISTANT_JUNK_MODEL_PATH, SUMMARY_JUNK_MODEL_PATH, USER_JUNK_MODEL_PATH } from '../src/core/distill/junk-model/model.js';
import { trainLinearTextModel, type LabelledText } from '../src/core/distill/junk-model/train.js';
import {
  ASSISTANT_TRAINING_FILES,
  SUMMARY_TRAINING_FILES,
  TRAINING_FILES,
  assistantModelTrainingRows,
  junkModelTrainingRows,
  summaryModelTrainingRows,
} from '../bench/lib/junk-model-rows.js';

function train(name: string, rows: LabelledText[], files: string[], path: string): void {
  const started = Date.now();
  const model = trainLinearTextModel({ rows, files });
  writeFileSync(path, `${JSON.stringify(model)}\n`);
  const terms = Object.keys(model.terms.words).length + Object.keys(model.terms.chars).length;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${name}: ${rows.length} rows (${model.trainedOn.keep} keep), ${terms} terms, ${seconds} s → ${path}`);
}

train('user', junkModelTrainingRows(), TRAINING_FILES, USER_JUNK_MODEL_PATH);
train('assistant', assistantModelTrainingRows(), ASSISTANT_TRAINING_FILES, ASSISTANT_JUNK_MODEL_PATH);
train('summary', summaryModelTrainingRows(), SUMMARY_TRAINING_FILES, SUMMARY_JUNK_MODEL_PATH);
