/**
 * Leave-one-transcript-out view of the admission gate over the TUNE part of the real-transcript set
 * (`npm run bench -- admission --cv`). The gate is hand-written, so there is no fitting step to
 * repeat per fold; what makes the estimate honest is the way rules are developed: while working on
 * fold k, list the errors of the other folds only (`--misses --except=<transcript>`), then read
 * fold k's rates, measured on rows that did not shape the change. The table prints every fold's
 * per-source rates (errors as counts, since folds are small) and the pooled rates over all folds.
 * The held-out part is never listed here: it is only the final estimate.
 */
import type { RealRow } from '../admission.js';
import { printTable } from './table.js';

export interface ScoredRow extends RealRow {
  admitted: boolean;
  why?: string;
  detail?: string;
}

const SOURCES = ['user', 'assistant', 'summary', 'llm'] as const;

/** "2/18 (11.1 %)", or "-" when the fold has none of that label. */
function share(errors: number, total: number): string {
  return total === 0 ? '-' : `${errors}/${total} (${((100 * errors) / total).toFixed(1)} %)`;
}

function cell(rows: ScoredRow[]): [string, string] {
  const keep = rows.filter((r) => r.label === 'keep');
  const junk = rows.filter((r) => r.label === 'junk');
  return [share(junk.filter((r) => r.admitted).length, junk.length), share(keep.filter((r) => !r.admitted).length, keep.length)];
}

export function printCrossValidation(gate: ScoredRow[]): void {
  const tune = gate.filter((r) => r.split === 'tune');
  const folds = [...new Set(tune.map((r) => r.transcript))].sort();
  const body: string[][] = [];
  for (const fold of [...folds, 'pooled']) {
    const part = fold === 'pooled' ? tune : tune.filter((r) => r.transcript === fold);
    for (const source of SOURCES) {
      const rows = part.filter((r) => r.source === source);
      if (rows.length > 0) body.push([fold, source, String(rows.length), ...cell(rows)]);
    }
    body.push([fold, 'all', String(part.length), ...cell(part)]);
  }
  printTable(
    'Leave-one-transcript-out over the tune part (gate alone): each fold is one transcript (targets: junk admitted <= 5 %, keep rejected <= 10 %)',
    ['fold', 'source', 'n', 'junk admitted', 'keep rejected'],
    body,
  );

  // Which detector rejects the keepers, per source: a rule written for one voice misfiring on another.
  const why = new Map<string, number>();
  for (const r of tune.filter((x) => x.label === 'keep' && !x.admitted)) {
    const key = `${r.source}\t${r.why ?? '?'}\t${r.detail ?? ''}`;
    why.set(key, (why.get(key) ?? 0) + 1);
  }
  printTable(
    'Tune keepers rejected, by source and the detector that rejected them',
    ['source', 'gate reason', 'detail', 'count'],
    [...why].sort((a, b) => a[0].localeCompare(b[0])).map(([k, c]) => [...k.split('\t'), c]),
  );
  const kinds = new Map<string, number>();
  for (const r of tune.filter((x) => x.label === 'junk' && x.admitted)) {
    const key = `${r.source}\t${r.reason}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  printTable(
    'Tune junk admitted, by source and labelled kind',
    ['source', 'labelled kind', 'count'],
    [...kinds].sort((a, b) => a[0].localeCompare(b[0])).map(([k, c]) => [...k.split('\t'), c]),
  );
}

/** Tune errors, leaving out one transcript (the fold being estimated) when `except` names it. */
export function printMisses(gate: ScoredRow[], except?: string): void {
  const rows = gate.filter((s) => s.split === 'tune' && s.transcript !== except && (s.label === 'keep') !== s.admitted);
  console.log(`\nErrors on the tune part${except ? ` except ${except}` : ''} (gate alone): label, source, gate reason, text`);
  for (const r of rows) {
    const why = r.why ? `${r.why}${r.detail ? `:${r.detail}` : ''}` : 'admitted';
    console.log(`  ${r.label.padEnd(5)} ${r.source.padEnd(9)} ${why.padEnd(34)} ${r.text.slice(0, 140).replace(/\n/g, '\\n')}`);
  }
}
