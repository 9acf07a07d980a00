/**
 * `--cv` part two: the learned baseline (durability-model.ts), fitted per fold on the other tune
 * transcripts and scored on the fold left out, so every figure is out of sample. Printed: the
 * ranking quality per source (AUC: the chance a keeper scores above a junk unit) and the rates of
 * "the rules, then the model vetoes what it scores below t", next to the rules alone.
 */
import { durabilityFeatures, durabilityProbability } from './durability-model.js';
import { trainDurability } from './durability-train.js';
import type { ScoredRow } from './admission-cv.js';
import { printTable } from './table.js';

const SOURCES = ['user', 'assistant', 'summary', 'llm'] as const;
const VETO = [0.2, 0.3, 0.4] as const;

interface Out extends ScoredRow {
  p: number;
}

function auc(rows: Out[]): string {
  const keep = rows.filter((r) => r.label === 'keep').map((r) => r.p);
  const junk = rows.filter((r) => r.label === 'junk').map((r) => r.p);
  if (keep.length === 0 || junk.length === 0) return '-';
  let wins = 0;
  for (const k of keep) for (const j of junk) wins += k > j ? 1 : k === j ? 0.5 : 0;
  return (wins / (keep.length * junk.length)).toFixed(3);
}

function errors(rows: Out[], admitted: (r: Out) => boolean): string {
  const junk = rows.filter((r) => r.label === 'junk');
  const keep = rows.filter((r) => r.label === 'keep');
  const ja = junk.filter(admitted).length;
  const kr = keep.filter((r) => !admitted(r)).length;
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${a}/${b} (${((100 * a) / b).toFixed(1)} %)`);
  return `${pct(ja, junk.length)} · ${pct(kr, keep.length)}`;
}

export function printLearnedBaseline(gate: ScoredRow[]): void {
  const tune = gate.filter((r) => r.split === 'tune');
  const withFeatures = tune.map((r) => ({
    row: r,
    features: durabilityFeatures({ text: r.text, source: r.source, ruling: r.admitted ? 'admit' : (r.why ?? 'rejected') }),
  }));
  const out: Out[] = [];
  for (const fold of [...new Set(tune.map((r) => r.transcript))].sort()) {
    const model = trainDurability(
      withFeatures.filter((x) => x.row.transcript !== fold).map((x) => ({ features: x.features, keep: x.row.label === 'keep' })),
    );
    for (const x of withFeatures.filter((x) => x.row.transcript === fold))
      out.push({ ...x.row, p: durabilityProbability(model, x.features) });
  }
  const body = [...SOURCES, 'all'].map((source) => {
    const rows = source === 'all' ? out : out.filter((r) => r.source === source);
    return [
      source,
      String(rows.length),
      auc(rows),
      errors(rows, (r) => r.admitted),
      ...VETO.map((t) => errors(rows, (r) => r.admitted && r.p >= t)),
    ];
  });
  printTable(
    "Learned baseline, leave-one-transcript-out over the tune part: logistic regression on words + source + the rules' ruling (junk admitted · keep rejected)",
    ['source', 'n', 'AUC', 'rules alone', ...VETO.map((t) => `rules, veto p < ${t}`)],
    body,
  );
}
