/**
 * Admission-gate benchmark: precision, recall and F1 of the rules-only gate on the labelled set
 * `bench/data/admission-set.jsonl` (positive class = "keep"), overall, by language and by half.
 * Lines 1, 3, 5, ... are the development half the rules were checked against; lines 2, 4, 6, ...
 * are held out and reported separately. Four more files were each written after the rules were
 * frozen and scored once before any change. r1 (first contact: P 0.826 / R 0.950), r2 (P 0.742 /
 * R 1.000) and r3 (P 0.750 / R 0.981) were then used to fix the rules, so they are development
 * data now; `admission-holdout-r4.jsonl` was written after the last fix and has never been used
 * to change them. Its figures are the honest estimate. Run: `npx tsx bench/admission.ts [--misses | --misses-all]`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admit, type AdmissionReason } from '../src/core/distill/admission.js';
import { hasCjk } from '../src/core/distill/signals.js';

interface Row {
  text: string;
  label: 'keep' | 'junk';
  kind: string;
}

interface Scored extends Row {
  line: number;
  lang: 'en' | 'zh';
  admitted: boolean;
  reason: AdmissionReason | undefined;
}

export interface Metrics {
  n: number;
  keep: number;
  junk: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
}

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');

export function loadAdmissionSet(path = join(DATA_DIR, 'admission-set.jsonl')): Row[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

export function metrics(rows: Scored[]): Metrics {
  const tp = rows.filter((r) => r.label === 'keep' && r.admitted).length;
  const fp = rows.filter((r) => r.label === 'junk' && r.admitted).length;
  const fn = rows.filter((r) => r.label === 'keep' && !r.admitted).length;
  const tn = rows.filter((r) => r.label === 'junk' && !r.admitted).length;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { n: rows.length, keep: tp + fn, junk: fp + tn, tp, fp, fn, tn, precision, recall, f1 };
}

export function scoreAdmissionSet(rows: Row[]): Scored[] {
  return rows.map((row, i) => {
    const decision = admit({ text: row.text });
    return { ...row, line: i + 1, lang: hasCjk(row.text) ? 'zh' : 'en', admitted: decision.admitted, reason: decision.reason };
  });
}

const pct = (x: number) => x.toFixed(3);
const pad = (s: string | number, n: number) => String(s).padEnd(n);
const oneLine = (s: string) => (s.length > 90 ? `${s.slice(0, 87)}...` : s).replace(/\n/g, '\\n');

/** Prints the admission tables; `misses` also lists errors (dev half only, or every file). */
export function runAdmissionBench(options: { misses?: 'dev' | 'all' } = {}): void {
  const scored = scoreAdmissionSet(loadAdmissionSet());
  const round1 = scoreAdmissionSet(loadAdmissionSet(join(DATA_DIR, 'admission-holdout-r1.jsonl')));
  const round2 = scoreAdmissionSet(loadAdmissionSet(join(DATA_DIR, 'admission-holdout-r2.jsonl')));
  const round3 = scoreAdmissionSet(loadAdmissionSet(join(DATA_DIR, 'admission-holdout-r3.jsonl')));
  const fresh = scoreAdmissionSet(loadAdmissionSet(join(DATA_DIR, 'admission-holdout-r4.jsonl')));
  const groups: Array<[string, Scored[]]> = [
    ['all', scored],
    ['en', scored.filter((r) => r.lang === 'en')],
    ['zh', scored.filter((r) => r.lang === 'zh')],
    ['dev half (odd lines)', scored.filter((r) => r.line % 2 === 1)],
    ['held-out half (even lines)', scored.filter((r) => r.line % 2 === 0)],
    ['held-out en', scored.filter((r) => r.line % 2 === 0 && r.lang === 'en')],
    ['held-out zh', scored.filter((r) => r.line % 2 === 0 && r.lang === 'zh')],
    ['r1 file (tuned on since)', round1],
    ['r2 file (tuned on since)', round2],
    ['r3 file (tuned on since)', round3],
    ['r4 held-out file', fresh],
    ['r4 held-out en', fresh.filter((r) => r.lang === 'en')],
    ['r4 held-out zh', fresh.filter((r) => r.lang === 'zh')],
  ];
  console.log('\nAdmission gate (rules only), positive class = keep; targets precision >= 0.9, recall >= 0.8\n');
  console.log(`${pad('subset', 28)}${pad('n', 6)}${pad('keep', 6)}${pad('junk', 6)}${pad('precision', 11)}${pad('recall', 9)}${pad('F1', 7)}`);
  for (const [name, rows] of groups) {
    const m = metrics(rows);
    console.log(`${pad(name, 28)}${pad(m.n, 6)}${pad(m.keep, 6)}${pad(m.junk, 6)}${pad(pct(m.precision), 11)}${pad(pct(m.recall), 9)}${pad(pct(m.f1), 7)}`);
  }

  // Confusion by reason: which rule rejected junk (true rejections) and keepers (false rejections).
  const reasons = new Map<string, { junk: number; keep: number }>();
  for (const r of scored) {
    if (r.admitted) continue;
    const entry = reasons.get(r.reason ?? '?') ?? { junk: 0, keep: 0 };
    entry[r.label]++;
    reasons.set(r.reason ?? '?', entry);
  }
  console.log(`\n${pad('rejection reason', 24)}${pad('junk (correct)', 16)}keep (false rejection)`);
  for (const [reason, c] of [...reasons].sort((a, b) => b[1].junk + b[1].keep - (a[1].junk + a[1].keep))) {
    console.log(`${pad(reason, 24)}${pad(c.junk, 16)}${c.keep}`);
  }

  // Junk by labelled kind: how much of each family the gate lets through.
  const kinds = new Map<string, { total: number; admitted: number }>();
  for (const r of scored.filter((s) => s.label === 'junk')) {
    const entry = kinds.get(r.kind) ?? { total: 0, admitted: 0 };
    entry.total++;
    if (r.admitted) entry.admitted++;
    kinds.set(r.kind, entry);
  }
  console.log(`\n${pad('junk kind', 24)}${pad('total', 8)}admitted (missed)`);
  for (const [kind, c] of [...kinds].sort((a, b) => b[1].total - a[1].total)) console.log(`${pad(kind, 24)}${pad(c.total, 8)}${c.admitted}`);

  // --misses lists errors on the development half only (so the held-out half stays unseen);
  // --misses-all lists every error.
  const all = options.misses === 'all';
  const errorRows = all ? [...scored, ...round1.map((r) => ({ ...r, line: -r.line }))] : scored;
  if (options.misses) {
    console.log(`\nErrors on ${all ? 'all lines' : 'the development half'} (line, label, reason, text):`);
    for (const r of errorRows.filter((s) => (s.label === 'keep') !== s.admitted && (all || s.line % 2 === 1))) {
      console.log(`  ${pad(r.line, 5)}${pad(r.label, 6)}${pad(r.reason ?? 'admitted', 22)}${oneLine(r.text)}`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runAdmissionBench({ misses: process.argv.includes('--misses-all') ? 'all' : process.argv.includes('--misses') ? 'dev' : undefined });
}
