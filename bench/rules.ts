/**
 * What offline distillation (no LLM) learns from each real transcript in ../shared/fixtures: the
 * transcript's L0 records (reader + cleaner, as capture writes them) are distilled by rules in a
 * fresh home, and the memories stored are counted and listed. Run: `npm run bench -- rules`
 * (`--all` prints every memory instead of a sample of 5 per transcript).
 */
import { fileURLToPath } from 'node:url';
import { runDistill } from '../src/core/distill/index.js';
import type { MemoryRecord } from '../src/spec/memory-record.js';
import { UNCAPPED, withRealTranscriptHome } from './lib/real-home.js';
import { readmeItems, touchedItems, type ReadmeItem } from './lib/readme-items.js';
import { availableTranscripts, readRealTranscript, type RealTranscript } from './lib/real-transcripts.js';
import { printTable } from './lib/table.js';

export interface RulesYield {
  transcript: RealTranscript;
  messages: number;
  memories: MemoryRecord[];
  rejected: number;
  /** README durable items of this transcript, and those a memory was distilled from (see readme-items.ts). */
  items: ReadmeItem[];
  touched: ReadmeItem[];
}

/** Distils one real transcript by rules in a temporary home and returns what was stored. */
export async function rulesYield(t: RealTranscript): Promise<RulesYield> {
  return withRealTranscriptHome(t, async ({ home, strata, ctx, records }) => {
    const report = await runDistill({ ctx, home, caps: UNCAPPED });
    const memories = await strata.list({ scopes: [`agent:${t.agentId}`, 'global'], order: 'oldest', limit: 10_000 });
    const lineOf = new Map(readRealTranscript(t).map((r) => [r.id, r.line]));
    const lines = memories.flatMap((m) => (m.source.messageIds ?? []).map((id) => lineOf.get(id) ?? -10));
    const items = readmeItems().filter((i) => i.transcript === t.id);
    return {
      transcript: t,
      messages: records.length,
      memories,
      rejected: report.rejected.total,
      items,
      touched: touchedItems(items, t, lines),
    };
  });
}

export async function runRulesBench(options: { all?: boolean } = {}): Promise<RulesYield[]> {
  const yields: RulesYield[] = [];
  for (const t of availableTranscripts()) yields.push(await rulesYield(t));
  printTable(
    'Offline rules (no LLM): memories learned per real transcript',
    [
      'transcript',
      'split',
      'messages',
      'memories',
      'rule',
      'pref',
      'decision',
      'fact',
      'lesson',
      'rejected by gate',
      'README items touched',
    ],
    yields.map((y) => {
      const by = (c: string) => y.memories.filter((m) => m.category === c).length;
      return [
        y.transcript.id,
        y.transcript.split,
        y.messages,
        y.memories.length,
        by('rule'),
        by('preference'),
        by('decision'),
        by('fact') + by('entity'),
        by('lesson'),
        y.rejected,
        y.items.length === 0 ? '-' : `${y.touched.length}/${y.items.length}`,
      ];
    }),
  );
  for (const y of yields) {
    if (y.memories.length === 0) continue;
    const shown = options.all ? y.memories : y.memories.slice(0, 5);
    console.log(`\n${y.transcript.id} (${y.memories.length}${options.all ? '' : ', first 5'}):`);
    for (const m of shown) console.log(`  [${m.category}] ${m.text}`);
  }
  return yields;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runRulesBench({ all: process.argv.includes('--all') });
}
