/**
 * `--cv`: how the assistant-message and summary models' thresholds were chosen. Each training group
 * (a read written set or written summary, or one tune transcript of the real set) is left out in
 * turn; a model fitted on the rest reads its units through offline capture (the role's triggers and
 * the gate apply as in the product), and the units a memory is learned from are counted by label,
 * summed over the left-out groups. Every figure is out of sample.
 */
import { PROSE_KEEP_CEILING, type ProseRole } from '../../src/core/distill/junk-model/prose-judgement.js';
import type { LabelledText } from '../../src/core/distill/junk-model/train.js';
import { trainLinearTextModel } from '../../src/core/distill/junk-model/train.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { assistantModelTrainingGroups, assistantModelTrainingRows, summaryModelTrainingGroups } from './junk-model-rows.js';
import { printTable } from './table.js';

const CEILINGS = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6] as const;

type Counts = { writtenKeep: number; writtenJunk: number; realKeep: number; realJunk: number };
const zero = (): Counts => ({ writtenKeep: 0, writtenJunk: 0, realKeep: 0, realJunk: 0 });

function crossValidate(role: ProseRole, groups: Array<{ file: string; rows: LabelledText[] }>, always: LabelledText[]) {
  const settings = [
    { name: 'triggers alone (model off)', ceiling: 2 },
    ...CEILINGS.map((c) => ({ name: `add P(keep) > ${c}${c === PROSE_KEEP_CEILING[role] ? ' (shipped)' : ''}`, ceiling: c })),
  ];
  const learned = settings.map(zero);
  const totals = zero();
  for (const left of groups) {
    const model = trainLinearTextModel({ rows: [...always, ...groups.filter((g) => g !== left).flatMap((g) => g.rows)] });
    const where = left.file.startsWith('admission-real') ? 'real' : 'written';
    for (const row of left.rows) {
      const key = `${where}${row.keep ? 'Keep' : 'Junk'}` as keyof Counts;
      totals[key]++;
      for (const [i, s] of settings.entries())
        if (captureByRules({ text: row.text, role, proseModel: { model, keepCeiling: s.ceiling } }).length > 0) learned[i]![key]++;
    }
  }
  return { settings, learned, totals };
}

export function printProseModelCrossValidation(): void {
  const runs = [
    { role: 'assistant' as const, groups: assistantModelTrainingGroups(), always: [] },
    // The summary model also trains on every assistant row; only summary groups are left out.
    { role: 'summary' as const, groups: summaryModelTrainingGroups(), always: assistantModelTrainingRows() },
  ];
  for (const { role, groups, always } of runs) {
    const { settings, learned, totals } = crossValidate(role, groups, always);
    printTable(
      `${role === 'assistant' ? 'Assistant-message' : 'Summary'} model, leave one group out (${groups.length} groups; written ${totals.writtenKeep} keep / ${totals.writtenJunk} junk units, real tune ${totals.realKeep} / ${totals.realJunk}): units offline capture learns a memory from, one unit at a time`,
      ['setting', 'written: keep', 'written: junk', 'real: keep', 'real: junk'],
      settings.map((s, i) => [s.name, learned[i]!.writtenKeep, learned[i]!.writtenJunk, learned[i]!.realKeep, learned[i]!.realJunk]),
    );
  }
}
