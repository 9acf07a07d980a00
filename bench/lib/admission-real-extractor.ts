import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadJsonl } from '../admission.js';
import { GROUNDED_COLUMNS, groundedCells, judgeFourWays, sessionBatches, type GroundedOutcome } from './admission-real-grounded.js';
import { availableTranscripts } from './real-transcripts.js';
import { printTable } from './table.js';

/**
 * Extractor output written against the real conversations (`admission-real-extractor.jsonl`,
 * bench/data/README.md "Stop 44"): helpers read a real session as capture stores it and wrote what a
 * careful, a sloppy and a terse extractor would return, citing real messages, and labelled each
 * memory with the conversation in hand. Unlike the set's own `llm` rows, the junk here includes
 * what only the conversation shows (a one-off made a rule, a value corrected later, the agent's guess
 * taken for a fact), so this is where the evidence checks' benefit on real conversations is read.
 * Judged as `strata distill` judges: the batch the memory came from and the cited ids.
 */
interface ExtractorRow {
  transcript: string;
  split: 'tune' | 'heldout';
  extractor: string;
  text: string;
  sources: string[];
  label: 'keep' | 'junk';
  reason: string;
}

interface Outcome extends GroundedOutcome {
  row: ExtractorRow;
}

/** A file of such rows, the writers it holds and how its tables are titled. */
interface ExtractorSet {
  file: string;
  writers: string[];
  title: string;
}

const SETS: ExtractorSet[] = [
  {
    file: 'admission-real-extractor.jsonl',
    writers: ['careful', 'sloppy', 'terse'],
    title: 'Extractor output written against the real conversations',
  },
  {
    // Stop 45: the short notes real writers produce (mem0-style, memory-file bullets, named subjects).
    file: 'admission-real-notes.jsonl',
    writers: ['terse', 'bullet', 'named'],
    title: 'Short notes written against the real conversations (mem0-style, memory-file bullets, named subjects)',
  },
];

function score(dataDir: string, file: string): Outcome[] {
  const rows = loadJsonl<ExtractorRow>(join(dataDir, file));
  const out: Outcome[] = [];
  for (const t of availableTranscripts()) {
    const batches = sessionBatches(t);
    for (const row of rows.filter((r) => r.transcript === t.id))
      out.push({ row, label: row.label, split: row.split, ...judgeFourWays(row, batches) });
  }
  return out;
}

export function printRealExtractor(options: { dataDir: string }): void {
  if (availableTranscripts().length === 0) return;
  for (const set of SETS) if (existsSync(join(options.dataDir, set.file))) printSet(options.dataDir, set);
}

function printSet(dataDir: string, set: ExtractorSet): void {
  const outcomes = score(dataDir, set.file);
  const groups: Array<[string, Outcome[]]> = [];
  for (const split of ['heldout', 'tune'] as const) {
    const of = outcomes.filter((o) => o.row.split === split);
    groups.push([split, of]);
    for (const writer of set.writers) groups.push([`${split}, ${writer}`, of.filter((o) => o.row.extractor === writer)]);
  }
  groups.push(['all', outcomes]);
  printTable(
    `${set.title} (junk admitted · keep rejected; written and labelled by helpers with the conversation in hand)`,
    ['rows', ...GROUNDED_COLUMNS],
    groups.map(([name, of]) => [name, ...groundedCells(of)]),
  );
  // Which junk the conversation catches: by the writers' reason, all splits together (counts only).
  const reasons = [...new Set(outcomes.filter((o) => o.row.label === 'junk').map((o) => o.row.reason))].sort();
  printTable(
    "The same junk by the writers' reason: admitted on the text alone, and given the batch and the cited ids (tune and held-out together)",
    ['reason', 'rows', 'admitted, text alone', 'admitted, batch cited'],
    reasons.map((reason) => {
      const of = outcomes.filter((o) => o.row.label === 'junk' && o.row.reason === reason);
      return [reason, of.length, of.filter((o) => o.alone).length, of.filter((o) => o.batch.admitted).length];
    }),
  );
}
