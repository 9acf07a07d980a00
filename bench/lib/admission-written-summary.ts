import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { loadJsonl, rates, type RealRow } from '../admission.js';
import { printTable } from './table.js';
import { summaryDocumentYield } from './summary-documents.js';

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/**
 * Compaction summaries written blind (bench/data/README.md): 24 summaries in the formats of Claude
 * Code, pi/OpenClaw, Codex and an OpenClaw personal assistant, cut into units by `splitUnits` and
 * labelled by their writers. The real set holds 4 summary keepers in its tune part, all from one
 * session, so these are what the summary rules are measured on: the gate on each unit (source
 * `summary`) and the units offline rules learn a memory from, per file and per host.
 */
const WRITTEN_SUMMARY_SETS = [
  { file: 'admission-summary-dev.jsonl', role: 'dev', dir: 'dev', prefix: 'a' },
  { file: 'admission-summary-blind.jsonl', role: 'blind', dir: 'blind', prefix: 'b' },
  { file: 'admission-summary-c.jsonl', role: 'blind', dir: 'c', prefix: 'c' },
] as const;

interface SummaryRow extends RealRow {
  host: string;
}

function measure(data: SummaryRow[]): string[] {
  const m = rates(data.map((r) => ({ label: r.label, admitted: admit({ text: r.text, source: 'summary' }).admitted })));
  const learned = (label: string) =>
    data.filter((r) => r.label === label && captureByRules({ text: r.text, role: 'summary', maxPerTurn: 3 }).length > 0).length;
  return [String(m.keep), String(m.junk), pct(m.junkAdmitted), pct(m.keepRejected), String(learned('keep')), String(learned('junk'))];
}

export function printWrittenSummarySets(options: { dataDir: string }): void {
  const rows: string[][] = [];
  for (const { file: f, role } of WRITTEN_SUMMARY_SETS) {
    if (!existsSync(join(options.dataDir, f))) continue;
    const data = loadJsonl<SummaryRow>(join(options.dataDir, f));
    rows.push([f, role, 'all', ...measure(data)]);
    for (const host of [...new Set(data.map((r) => r.host))].sort())
      rows.push(['', '', host, ...measure(data.filter((r) => r.host === host))]);
  }
  printTable(
    'Compaction summaries written blind: gate alone (source summary), and units offline rules learn a memory from',
    ['file', 'role', 'host', 'keep', 'junk', 'junk admitted', 'keep rejected', 'rules learn: keep', 'rules learn: junk'],
    rows,
  );
  const whole = WRITTEN_SUMMARY_SETS.filter(({ file }) => existsSync(join(options.dataDir, file))).map(({ file: f, role, dir, prefix }) => {
    const units = loadJsonl<SummaryRow>(join(options.dataDir, f));
    const y = summaryDocumentYield({ dir: join(options.dataDir, 'summaries-written', dir), prefix, units });
    const keep = units.filter((u) => u.label === 'keep').length;
    return [f, role, '12', String(y.memories), `${y.keep} of ${keep}`, String(y.junk), String(y.unmatched)];
  });
  printTable(
    'The same summaries whole through offline capture (sections seen, in-flight sections skipped): memories and the units they came from',
    ['file', 'role', 'summaries', 'memories', 'from keep units', 'from junk units', 'unmatched'],
    whole,
  );
}
