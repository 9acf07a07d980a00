/** Trains the user-message junk model and writes it to models/. Run: `npm run train:junk-model`. */
import { writeFileSync } from 'node:fs';
import { USER_JUNK_MODEL_PATH } from '../src/core/distill/junk-model/model.js';
import { trainLinearTextModel } from '../src/core/distill/junk-model/train.js';
import { TRAINING_FILES, junkModelTrainingRows } from '../bench/lib/junk-model-rows.js';

const started = Date.now();
const rows = junkModelTrainingRows();
const model = trainLinearTextModel({ rows, files: TRAINING_FILES });
writeFileSync(USER_JUNK_MODEL_PATH, `${JSON.stringify(model)}\n`);
const terms = Object.keys(model.terms.words).length + Object.keys(model.terms.chars).length;
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`${rows.length} rows (${model.trainedOn.keep} keep), ${terms} terms, ${seconds} s → ${USER_JUNK_MODEL_PATH}`);
