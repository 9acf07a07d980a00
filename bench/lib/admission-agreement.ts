/**
 * How far the labels of the held-out sentences can be trusted: the set's own labels (A) next to two
 * later labellings of the same 540 user, assistant and summary sentences (B and C, in
 * `bench/data/admission-heldout-relabel.jsonl`), each made blind to A, to each other, to the gate and
 * to the transcripts' README, with the same question and reasons (bench/data/README.md). It prints
 * Cohen's kappa between labellers, each later labeller scored against A as if it were a gate (what
 * an attentive reader reaches on A's labels), and the gate against A, B, C and the majority of the three.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printTable } from './table.js';

type Label = 'keep' | 'junk';
interface Relabel {
  text: string;
  source: string;
  transcript: string;
  line: number | null;
  labelB: Label;
  labelC: Label;
}
interface Joined {
  source: string;
  A: Label;
  B: Label;
  C: Label;
  M: Label;
  G: Label;
}

export function loadRelabels(dataDir: string): Relabel[] {
  return readFileSync(join(dataDir, 'admission-heldout-relabel.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Relabel);
}

function kappa(rows: Joined[], x: keyof Joined, y: keyof Joined): string {
  const n = rows.length;
  const observed = rows.filter((r) => r[x] === r[y]).length / n;
  const px = rows.filter((r) => r[x] === 'keep').length / n;
  const py = rows.filter((r) => r[y] === 'keep').length / n;
  const chance = px * py + (1 - px) * (1 - py);
  return chance === 1 ? '-' : ((observed - chance) / (1 - chance)).toFixed(2);
}

/** "junk admitted · keep rejected" of `pred` against the labels `ref`. */
function versus(rows: Joined[], ref: keyof Joined, pred: keyof Joined): string {
  const keep = rows.filter((r) => r[ref] === 'keep');
  const junk = rows.filter((r) => r[ref] === 'junk');
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${a}/${b} (${((100 * a) / b).toFixed(0)} %)`);
  return `${pct(junk.filter((r) => r[pred] === 'keep').length, junk.length)} · ${pct(keep.filter((r) => r[pred] === 'junk').length, keep.length)}`;
}

export function printLabelAgreement(
  scored: Array<{ text: string; source: string; transcript: string; line: number | null; label: Label; admitted: boolean }>,
  dataDir: string,
): void {
  const byKey = new Map(scored.map((r) => [`${r.transcript}\t${r.line}\t${r.source}\t${r.text}`, r]));
  const joined: Joined[] = [];
  for (const b of loadRelabels(dataDir)) {
    const a = byKey.get(`${b.transcript}\t${b.line}\t${b.source}\t${b.text}`);
    if (!a) continue;
    const keeps = [a.label, b.labelB, b.labelC].filter((l) => l === 'keep').length;
    joined.push({
      source: b.source,
      A: a.label,
      B: b.labelB,
      C: b.labelC,
      M: keeps >= 2 ? 'keep' : 'junk',
      G: a.admitted ? 'keep' : 'junk',
    });
  }
  const groups = [...new Set(joined.map((r) => r.source)), 'all'].map(
    (s) => [s, s === 'all' ? joined : joined.filter((r) => r.source === s)] as const,
  );
  const count = (rows: Joined[], k: keyof Joined) => rows.filter((r) => r[k] === 'keep').length;
  printTable(
    `Held-out sentences labelled three times (A: the set's labels; B, C: blind relabellings), Cohen's kappa`,
    ['source', 'n', 'keep A / B / C / majority', 'kappa A-B', 'kappa A-C', 'kappa B-C'],
    groups.map(([s, rows]) => [
      s,
      rows.length,
      `${count(rows, 'A')} / ${count(rows, 'B')} / ${count(rows, 'C')} / ${count(rows, 'M')}`,
      kappa(rows, 'A', 'B'),
      kappa(rows, 'A', 'C'),
      kappa(rows, 'B', 'C'),
    ]),
  );
  printTable(
    'Scored as a gate (junk admitted · keep rejected): labeller B and C against A, and the gate against each labelling',
    ['source', 'B vs A', 'C vs A', 'gate vs A', 'gate vs B', 'gate vs C', 'gate vs majority'],
    groups.map(([s, rows]) => [
      s,
      versus(rows, 'A', 'B'),
      versus(rows, 'A', 'C'),
      versus(rows, 'A', 'G'),
      versus(rows, 'B', 'G'),
      versus(rows, 'C', 'G'),
      versus(rows, 'M', 'G'),
    ]),
  );
}
