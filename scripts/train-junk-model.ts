/**
 * Trains the user-message junk model (src/core/distill/junk-model) and writes it to
 * models/user-junk-model.json. Run: `npm run train:junk-model`.
 *
 * Trained only on labelled user text that has been read (the `dev` sets of bench/data/README.md) and
 * on the tune part of the real-transcript set; the blind sets and the held-out transcripts are what
 * it is measured on, so they never enter here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USER_JUNK_MODEL_PATH } from '../src/core/distill/junk-model/model.js';
import { trainLinearTextModel, type LabelledText } from '../src/core/distill/junk-model/train.js';

const DATA = fileURLToPath(new URL('../bench/data/', import.meta.url));

/** Written user messages, one labelled message per row. */
const USER_SETS = [
  'admission-user-en-dev-1.jsonl',
  'admission-user-en-dev-2.jsonl',
  'admission-user-en-dev-5.jsonl',
  'admission-user-es-dev-1.jsonl',
  'admission-user-es-dev-2.jsonl',
  'admission-user-es-dev-4.jsonl',
];
/** Supersession scenarios: every message states something to keep, but the `noise` ones. */
const SCENARIO_SETS = ['en-a', 'en-d', 'en-f', 'en-h', 'es-a', 'es-c', 'es-d', 'es-e', 'es-g'].map((s) => `supersession-${s}.jsonl`);
const REAL = 'admission-real.jsonl';

const jsonl = <T>(file: string): T[] =>
  readFileSync(join(DATA, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

interface LabelledRow {
  text: string;
  label: 'keep' | 'junk';
  source?: string;
  split?: string;
}
interface Scenario {
  messages: Array<{ role: string; text: string }>;
}

const rows: LabelledText[] = [
  ...USER_SETS.flatMap((f) => jsonl<LabelledRow>(f).map((r) => ({ text: r.text, keep: r.label === 'keep' }))),
  ...SCENARIO_SETS.flatMap((f) => jsonl<Scenario>(f).flatMap((s) => s.messages.map((m) => ({ text: m.text, keep: m.role !== 'noise' })))),
  ...jsonl<LabelledRow>(REAL)
    .filter((r) => r.source === 'user' && r.split === 'tune')
    .map((r) => ({ text: r.text, keep: r.label === 'keep' })),
];
const started = Date.now();
const model = trainLinearTextModel({ rows, files: [...USER_SETS, ...SCENARIO_SETS, `${REAL} (user, tune)`] });
writeFileSync(USER_JUNK_MODEL_PATH, `${JSON.stringify(model)}\n`);
const terms = Object.keys(model.terms.words).length + Object.keys(model.terms.chars).length;
console.log(
  `${rows.length} rows (${model.trainedOn.keep} keep), ${terms} terms, ${((Date.now() - started) / 1000).toFixed(1)} s → ${USER_JUNK_MODEL_PATH}`,
);
