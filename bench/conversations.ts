/**
 * `npm run bench -- conversations`: the capture pipeline's conversation index on LanceDB, per log
 * size: appending to the JSONL L0 log, catching the index up from its watermark, a no-op catch-up
 * (what every capture pays when nothing is new), the full check `strata doctor` runs, and lexical
 * conversation search latency before and after `optimize` builds the full-text index over the new
 * rows (0 ms: nothing worth doing). Embedder `none`: storage and indexing, not a model.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { L0Record } from '../src/spec/conversation.js';
import { Strata } from '../src/strata.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const WORDS = 'deploy staging database backup cluster invoice budget design review release migration schema rollback cache queue'.split(
  ' ',
);

function records(n: number): L0Record[] {
  const out: L0Record[] = [];
  for (let i = 0; i < n; i += 1) {
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    out.push({
      sessionKey: `agent:a:s${i % 50}`,
      sessionId: `s${i % 50}`,
      agentId: `agent${i % 3}`,
      host: 'live',
      id: `m${i}`,
      role: i % 2 ? 'assistant' : 'user',
      content: `message ${i}: the ${w(1)} ${w(2)} needs a ${w(3)} before the ${w(4)} on day ${i % 31}`,
      timestamp: 1_771_996_735_000 + i * 1000,
      recordedAt: new Date().toISOString(),
    });
  }
  return out;
}

async function time<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

export async function runConversationsBench(sizes = [2_000, 20_000]): Promise<void> {
  const rows: Array<Array<string | number>> = [];
  for (const n of sizes) {
    const home = await mkdtemp(join(tmpdir(), 'strata-bench-conv-'));
    try {
      await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
      const strata = await Strata.open({ home });
      try {
        const all = records(n);
        const append = await time(async () => {
          for (let i = 0; i < all.length; i += 500) await strata.l0.append({ records: all.slice(i, i + 500) });
        });
        const catchUp = await time(() => strata.indexConversations());
        const noop = await time(() => strata.indexConversations());
        const verify = await time(() => strata.conversationIndexStatus({ verify: true }));
        const search = async () => {
          const latencies: number[] = [];
          for (let q = 0; q < 50; q += 1) {
            const query = `${WORDS[q % WORDS.length]} ${WORDS[(q * 5) % WORDS.length]}`;
            latencies.push((await time(() => strata.searchConversations({ query, limit: 10, agentIds: ['agent1'] }))).ms);
          }
          return summarize(latencies);
        };
        const fresh = await search();
        const optimize = await time(() => strata.optimizeConversations());
        const optimized = await search();
        rows.push([
          n,
          n / (append.ms / 1000),
          n / (catchUp.ms / 1000),
          noop.ms,
          verify.ms,
          verify.value.missing ?? -1,
          fresh.p50,
          optimize.value ? optimize.ms : 0,
          optimized.p50,
          optimized.p95,
        ]);
      } finally {
        await strata.close();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  printTable(
    'conversation index (LanceDB, embedder none)',
    [
      'messages',
      'L0 append msg/s',
      'catch-up msg/s',
      'no-op catch-up ms',
      'doctor check ms',
      'missing',
      'search p50 ms (unindexed)',
      'optimize ms',
      'search p50 ms',
      'search p95 ms',
    ],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runConversationsBench();
