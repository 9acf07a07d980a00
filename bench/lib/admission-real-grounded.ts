import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import type { EvidenceMessage, MemoryEvidence } from '../../src/core/distill/grounding.js';
import { contentWords } from '../../src/core/distill/grounding-words.js';
import { chunkMessages, packChunks } from '../../src/core/distill/prompt.js';
import { loadJsonl, type RealRow } from '../admission.js';
import { availableTranscripts, readRealTranscript, type RealTranscript } from './real-transcripts.js';
import { printTable } from './table.js';

/**
 * The LLM-style memories of the real-transcript set, judged with the conversation they were written
 * from, as `strata distill` judges them (bench/data/README.md, "Stop 43"). Each memory's sources
 * were cited by a helper who saw the memories and the conversation but not the labels
 * (`admission-real-citations.jsonl`, the real L0 entry ids). The gate is given what distill gives
 * it: the batch of the session the memory came from (3,000-token chunks, packed) and the cited ids.
 * Also scored: the whole session as evidence, and the batch with no ids (an extractor that cites
 * nothing). The rows are the set's own `llm` rows, tune and held-out, labels unchanged.
 */
interface CitationRow {
  transcript: string;
  text: string;
  sources: string[];
}

/** One memory judged four ways: on its text, given its batch and cited ids, given the whole session, given the batch with no ids. */
export interface GroundedOutcome {
  label: 'keep' | 'junk';
  split: string;
  alone: boolean;
  batch: ReturnType<typeof admit>;
  session: boolean;
  uncited: boolean;
}

/** The columns both real-conversation tables print after their first (the rows' name). */
export const GROUNDED_COLUMNS = [
  'keep',
  'junk',
  'text alone',
  'batch, cited',
  'whole session, cited',
  'batch, no ids',
  'junk refused: one-off / corrected / agent only / detail never stated',
  'keep refused: one-off / corrected / agent only / detail never stated',
];

const rate = (of: GroundedOutcome[], admitted: (o: GroundedOutcome) => boolean): string => {
  const keep = of.filter((o) => o.label === 'keep');
  const junk = of.filter((o) => o.label === 'junk');
  return `${pct(junk.filter(admitted).length, junk.length)} · ${pct(keep.filter((o) => !admitted(o)).length, keep.length)}`;
};

/** Rows the text alone admits and the conversation refuses, by the check that refused them. */
const byCheck = (of: GroundedOutcome[], label: 'keep' | 'junk'): string => {
  const why = (prefix: string) =>
    of.filter((o) => o.label === label && o.alone && o.batch.reason === 'ungrounded' && o.batch.detail?.startsWith(prefix)).length;
  return `${why('one-off')} / ${why('corrected')} / ${why('only the agent')} / ${why('a detail')}`;
};

/** The cells under GROUNDED_COLUMNS for a group of outcomes. */
export function groundedCells(of: GroundedOutcome[]): Array<string | number> {
  return [
    of.filter((o) => o.label === 'keep').length,
    of.filter((o) => o.label === 'junk').length,
    rate(of, (o) => o.alone),
    rate(of, (o) => o.batch.admitted),
    rate(of, (o) => o.session),
    rate(of, (o) => o.uncited),
    byCheck(of, 'junk'),
    byCheck(of, 'keep'),
  ];
}

const CHUNK_TOKENS = 3000;
const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)} %`);

/** The batch distill would have extracted the memory from: the one holding its last cited message, else the one sharing most words. */
export function batchOf(batches: EvidenceMessage[][], row: { text: string; sources: string[] }): EvidenceMessage[] {
  for (const batch of [...batches].reverse()) if (batch.some((m) => row.sources.includes(m.id))) return batch;
  const words = contentWords(row.text);
  const overlap = (b: EvidenceMessage[]) => b.reduce((n, m) => n + [...contentWords(m.text)].filter((w) => words.has(w)).length, 0);
  return batches.reduce((best, b) => (overlap(b) > overlap(best) ? b : best), batches[0] ?? []);
}

/** A real session as `strata distill` sends it to the extractor: 3,000-token chunks, packed. */
export function sessionBatches(t: RealTranscript): EvidenceMessage[][] {
  const records = readRealTranscript(t).filter((m) => m.content.trim() !== '');
  return packChunks({ chunks: chunkMessages({ messages: records, maxTokens: CHUNK_TOKENS }), maxTokens: CHUNK_TOKENS }).map((b) =>
    b.map((m) => ({ id: m.id, role: m.role, text: m.content })),
  );
}

/** A memory judged on its text, given its batch and cited ids, given the whole session, and given the batch with no ids. */
export function judgeFourWays(
  memory: { text: string; sources: string[] },
  batches: EvidenceMessage[][],
): Omit<GroundedOutcome, 'label' | 'split'> {
  const judge = (evidence: MemoryEvidence) => admit({ text: memory.text, source: 'llm', evidence });
  const messages = batchOf(batches, memory);
  return {
    alone: admit({ text: memory.text, source: 'llm' }).admitted,
    batch: judge({ messages, cited: memory.sources }),
    session: judge({ messages: batches.flat(), cited: memory.sources }).admitted,
    uncited: judge({ messages, cited: [] }).admitted,
  };
}

function score(dataDir: string, real: RealRow[]): GroundedOutcome[] {
  const citations = loadJsonl<CitationRow>(join(dataDir, 'admission-real-citations.jsonl'));
  const out: GroundedOutcome[] = [];
  for (const t of availableTranscripts()) {
    const batches = sessionBatches(t);
    const rows = real.filter((r) => r.source === 'llm' && r.transcript === t.id);
    for (const r of rows) {
      const cited = citations.find((c) => c.transcript === t.id && c.text === r.text);
      if (!cited) throw new Error(`no citation row for ${t.id}: ${r.text}`);
      out.push({ label: r.label, split: r.split, ...judgeFourWays(cited, batches) });
    }
  }
  return out;
}

export function printRealGrounded(options: { dataDir: string; real: RealRow[] }): void {
  if (!existsSync(join(options.dataDir, 'admission-real-citations.jsonl')) || availableTranscripts().length === 0) return;
  const outcomes = score(options.dataDir, options.real);
  const rows = ['heldout', 'tune', 'all'].map((split) => [
    split,
    ...groundedCells(outcomes.filter((o) => split === 'all' || o.split === split)),
  ]);
  printTable(
    'LLM-style memories of the real-transcript set with their real conversation (junk admitted · keep rejected; citations by a helper blind to the labels)',
    ['split', ...GROUNDED_COLUMNS],
    rows,
  );
}
