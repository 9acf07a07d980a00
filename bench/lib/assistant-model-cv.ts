/**
 * `--cv`: how the assistant-message model's threshold was chosen. Each training group (a read
 * written set, or one tune transcript of the real set) is left out in turn; a model fitted on the
 * others reads its units through offline capture (role `assistant`, so the lesson triggers and the
 * gate apply as in the product), and the units a memory is learned from are counted by label,
 * summed over the left-out groups. Every figure is out of sample.
 */
import { ASSISTANT_KEEP_CEILING, type AssistantModelReading } from '../../src/core/distill/junk-model/assistant-judgement.js';
import { trainLinearTextModel } from '../../src/core/distill/junk-model/train.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { assistantModelTrainingGroups } from './junk-model-rows.js';
import { printTable } from './table.js';

const CEILINGS = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6] as const;

export function printAssistantModelCrossValidation(): void {
  const groups = assistantModelTrainingGroups();
  const settings = [
    { name: 'triggers alone (model off)', ceiling: 2 },
    ...CEILINGS.map((c) => ({ name: `add P(keep) > ${c}${c === ASSISTANT_KEEP_CEILING ? ' (shipped)' : ''}`, ceiling: c })),
  ];
  // Per setting: keep and junk units learned from the written sets, then from the real transcripts.
  const learned = settings.map(() => ({ writtenKeep: 0, writtenJunk: 0, realKeep: 0, realJunk: 0 }));
  const totals = { writtenKeep: 0, writtenJunk: 0, realKeep: 0, realJunk: 0 };
  for (const left of groups) {
    const model = trainLinearTextModel({ rows: groups.filter((g) => g !== left).flatMap((g) => g.rows) });
    const where = left.file.startsWith('admission-real') ? 'real' : 'written';
    for (const row of left.rows) {
      const key = `${where}${row.keep ? 'Keep' : 'Junk'}` as keyof typeof totals;
      totals[key]++;
      for (const [i, s] of settings.entries()) {
        const assistantModel: AssistantModelReading = { model, keepCeiling: s.ceiling };
        if (captureByRules({ text: row.text, role: 'assistant', assistantModel }).length > 0) learned[i]![key]++;
      }
    }
  }
  printTable(
    `Assistant-message model, leave one group out (${groups.length} groups; written ${totals.writtenKeep} keep / ${totals.writtenJunk} junk units, real tune ${totals.realKeep} / ${totals.realJunk}): units offline capture learns a memory from`,
    ['setting', 'written: keep', 'written: junk', 'real: keep', 'real: junk'],
    settings.map((s, i) => [s.name, learned[i]!.writtenKeep, learned[i]!.writtenJunk, learned[i]!.realKeep, learned[i]!.realJunk]),
  );
}
