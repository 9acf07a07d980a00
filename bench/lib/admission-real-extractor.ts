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

export const REAL_EXTRACTOR_FILE = 'admission-real-extractor.jsonl';

function score(dataDir: string): Outcome[] {
  const rows = loadJsonl<ExtractorRow>(join(dataDir, REAL_EXTRACTOR_FILE));
  const out: Outcome[] = [];
  for (const t of availableTranscripts()) {
    const batches = sessionBatches(t);
    for (const row of rows.filter((r) => r.transcript === t.id))
      out.push({ row, label: row.label, split: row.split, ...judgeFourWays(row, batches) });
  }
  return out;
}

export function printRealExtractor(options: { dataDir: string }): void {
  if (!existsSync(join(options.dataDir, REAL_EXTRACTOR_FILE)) || availableTranscripts().length === 0) return;
  const outcomes = score(options.dataDir);
  const groups: Array<[string, Outcome[]]> = [];
  for (const split of ['heldout', 'tune'] as const) {
    const of = outcomes.filter((o) => o.row.split === split);
    groups.push([split, of]);
    for (const extractor of ['careful', 'sloppy', 'terse'])
      groups.push([`${split}, ${extractor}`, of.filter((o) => o.row.extractor === extractor)]);
  }
  groups.push(['all', outcomes]);
  printTable(
    'Extractor output written against the real conversations (junk admitted · keep rejected; written and labelled by helpers with the conversation in hand)',
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
