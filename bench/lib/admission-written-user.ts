import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { loadJsonl, rates, type RealRow } from '../admission.js';
import { carriesShorthand } from './shorthand-left.js';
import { printTable } from './table.js';

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
/**
 * User messages written blind (bench/data/README.md), in Spanish and in English: the gate on each
 * (source `user`) and what offline rules learn from its keep and junk rows. `dev` sets were read to
 * write rules after their first measurement; `blind` ones were only measured.
 */
const WRITTEN_USER_SETS = [
  ['admission-user-es-dev-1.jsonl', 'dev'],
  ['admission-user-es-dev-2.jsonl', 'dev'],
  ['admission-user-es-blind-3.jsonl', 'blind'],
  ['admission-user-es-dev-4.jsonl', 'dev'],
  ['admission-user-es-blind-5.jsonl', 'blind'],
  ['admission-user-es-dev-6.jsonl', 'dev'],
  ['admission-user-es-dev-7.jsonl', 'dev'],
  ['admission-user-en-dev-1.jsonl', 'dev'],
  ['admission-user-en-dev-2.jsonl', 'dev'],
  ['admission-user-en-blind-3.jsonl', 'blind'],
  ['admission-user-en-blind-4.jsonl', 'blind'],
  ['admission-user-en-dev-5.jsonl', 'dev'],
  ['admission-user-en-blind-6.jsonl', 'blind'],
  ['admission-user-en-dev-7.jsonl', 'dev'],
  ['admission-user-en-dev-8.jsonl', 'dev'],
] as const;

export function printWrittenUserSets(options: { dataDir: string }): void {
  const rows = WRITTEN_USER_SETS.filter(([f]) => existsSync(join(options.dataDir, f))).map(([f, role]) => {
    const data = loadJsonl<RealRow>(join(options.dataDir, f));
    const m = rates(data.map((r) => ({ label: r.label, admitted: admit({ text: r.text, source: 'user' }).admitted })));
    const memories = data.map((r) => ({ label: r.label, texts: captureByRules({ text: r.text, role: 'user' }).map((c) => c.text) }));
    const learned = (label: string) => memories.filter((r) => r.label === label && r.texts.length > 0).length;
    const stored = memories.flatMap((r) => r.texts);
    const shorthand = stored.filter(carriesShorthand).length;
    return [
      f,
      role,
      m.keep,
      m.junk,
      pct(m.junkAdmitted),
      pct(m.keepRejected),
      learned('keep'),
      learned('junk'),
      `${shorthand} of ${stored.length}`,
    ];
  });
  printTable(
    'User messages written blind (Spanish, English): gate alone, rows offline rules learn a memory from, and memories whose stored text still carries chat shorthand',
    [
      'file',
      'role',
      'keep',
      'junk',
      'junk admitted',
      'keep rejected',
      'rules learn: keep rows',
      'rules learn: junk rows',
      'shorthand left',
    ],
    rows,
  );
}
