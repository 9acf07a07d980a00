/**
 * `--cv` part three: how the user-message model's two thresholds were chosen. Each read file the
 * model trains on is left out in turn; a model fitted on the others reads its rows through offline
 * capture, and the rows rules learn a memory from are counted by label (keep / junk), summed over the
 * left-out files. The floor vetoes what the model reads as junk; the ceiling lets in statements
 * without a trigger phrase or fact word. Every figure is out of sample.
 */
import type { UserModelReading } from '../../src/core/distill/junk-model/user-judgement.js';
import { trainLinearTextModel } from '../../src/core/distill/junk-model/train.js';
import { USER_KEEP_CEILING, USER_KEEP_FLOOR } from '../../src/core/distill/junk-model/user-judgement.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { junkModelTrainingGroups } from './junk-model-rows.js';
import { printTable } from './table.js';

const FLOORS = [0.05, 0.1, 0.15, 0.2] as const;
const CEILINGS = [0.95, 0.9, 0.85, 0.8] as const;
// A floor no probability reaches and a ceiling none exceeds: the model reads nothing.
const OFF = { keepFloor: -1, keepCeiling: 2 };

export function printJunkModelCrossValidation(): void {
  const groups = junkModelTrainingGroups();
  const settings: Array<{ name: string; floor: number; ceiling: number }> = [
    { name: 'rules alone (model off)', floor: OFF.keepFloor, ceiling: OFF.keepCeiling },
    ...FLOORS.map((f) => ({
      name: `veto P(keep) <= ${f}${f === USER_KEEP_FLOOR ? ' (shipped)' : ''}`,
      floor: f,
      ceiling: OFF.keepCeiling,
    })),
    ...CEILINGS.map((c) => ({
      name: `add P(keep) > ${c}${c === USER_KEEP_CEILING ? ' (shipped)' : ''}`,
      floor: OFF.keepFloor,
      ceiling: c,
    })),
  ];
  const learned = settings.map(() => ({ keep: 0, junk: 0 }));
  let keepRows = 0;
  let junkRows = 0;
  for (const left of groups) {
    const model = trainLinearTextModel({ rows: groups.filter((g) => g !== left).flatMap((g) => g.rows) });
    for (const row of left.rows) {
      if (row.keep) keepRows++;
      else junkRows++;
      for (const [i, s] of settings.entries()) {
        const userModel: UserModelReading = { model, keepFloor: s.floor, keepCeiling: s.ceiling };
        if (captureByRules({ text: row.text, role: 'user', userModel }).length === 0) continue;
        if (row.keep) learned[i]!.keep++;
        else learned[i]!.junk++;
      }
    }
  }
  printTable(
    `User-message model, leave one read file out (${groups.length} files, ${keepRows} keep / ${junkRows} junk rows): rows offline rules learn a memory from`,
    ['setting', 'keep rows learned', 'junk rows learned'],
    settings.map((s, i) => [s.name, learned[i]!.keep, learned[i]!.junk]),
  );
}
