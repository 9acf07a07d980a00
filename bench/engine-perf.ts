/**
 * Engine performance: batched write throughput, recall latency at 10k and 100k memories
 * (lexical, vector, hybrid; with a scope filter; with and without query embedding), RSS, and
 * the wall time of a cold `strata recall` process on a 10k store.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Strata } from '../src/strata.js';
import { createLocalEmbedder } from '../src/backends/embedder-local/index.js';
import type { RememberInput } from '../src/core/engine/types.js';
import { createHashEmbedder, makeSentence, makeVocabulary, rng } from './lib/synthetic.js';
import { printTable } from './lib/table.js';
import { rssMb, summarize } from './lib/stats.js';

const SCOPES = ['global', 'agent:a', 'agent:b', 'agent:c', 'project:x'];
const QUERIES = 200;

function corpus(n: number, seed: number): RememberInput[] {
  const random = rng(seed);
  const vocab = makeVocabulary(20_000, random);
  return Array.from({ length: n }, (_, i) => ({
    text: makeSentence(vocab, random),
    scope: SCOPES[i % SCOPES.length]!,
    category: 'fact' as const,
    importance: random(),
  }));
}

function queries(seed: number): string[] {
  const random = rng(seed);
  const vocab = makeVocabulary(20_000, rng(7)); // same vocabulary as the corpus
  return Array.from({ length: QUERIES }, () => makeSentence(vocab, random, 3, 6));
}

async function fill(strata: Strata, items: RememberInput[], batch: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < items.length; i += batch) {
    await strata.rememberMany({ items: items.slice(i, i + batch), nearDuplicates: false });
  }
  return (items.length / (performance.now() - started)) * 1000;
}

async function timeRecall(strata: Strata, qs: string[], scopes: string[]): Promise<ReturnType<typeof summarize>> {
  for (const q of qs.slice(0, 10)) await strata.recall({ query: q, scopes, limit: 10 }); // warm-up
  const samples: number[] = [];
  for (const q of qs) {
    const t = performance.now();
    await strata.recall({ query: q, scopes, limit: 10 });
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

export async function runWriteThroughput(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'strata-bench-write-'));
  try {
    const rows: Array<Array<string | number>> = [];
    const strata = await Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
    for (const batch of [100, 1000, 5000]) {
      const items = corpus(20_000, batch);
      rows.push([`batch ${batch}`, 'none', await fill(strata, items, batch)]);
    }
    await strata.close();
    printTable('Batched add throughput (memories/s, exact-dedupe on, 20k memories per row)', ['batch', 'embedder', 'memories/s'], rows);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

export async function runRecallLatency(sizes = [10_000, 100_000]): Promise<void> {
  const rows: Array<Array<string | number>> = [];
  for (const size of sizes) {
    const home = await mkdtemp(join(tmpdir(), `strata-bench-${size}-`));
    try {
      // Stored vectors come from a hash (building 100k real embeddings takes ~20 min here); the
      // store records the local model's id so the real model can embed queries against it.
      const local = createLocalEmbedder();
      const hashed = { ...createHashEmbedder(512), id: local.id };
      await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'local' } }));
      const base = await Strata.open({ home, embedder: hashed });
      const t0 = performance.now();
      await fill(base, corpus(size, 7), 5000);
      const tFill = performance.now() - t0;
      const t1 = performance.now();
      await base.optimize({ force: true });
      rows.push([
        `${size} build`,
        `insert ${(tFill / 1000).toFixed(1)} s, optimize ${((performance.now() - t1) / 1000).toFixed(1)} s`,
        '',
        '',
        '',
      ]);
      await base.close();
      const qs = queries(size + 1);
      for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
        const strata = await Strata.open({ home, embedder: hashed, overrides: { recall: { mode } } });
        const all = await timeRecall(strata, qs, SCOPES);
        const one = await timeRecall(strata, qs.slice().reverse(), ['agent:a']);
        rows.push([`${size} ${mode}`, 'all 5 scopes', all.p50, all.p95, all.p99]);
        rows.push([`${size} ${mode}`, '1 scope (20% of rows)', one.p50, one.p95, one.p99]);
        await strata.close();
      }
      // With query embedding: the real local model embeds every (uncached) query.
      const withEmbed = await Strata.open({ home, embedder: local });
      await withEmbed.recall({ query: 'warm the model', scopes: SCOPES });
      const e = await timeRecall(withEmbed, queries(size + 2), SCOPES);
      rows.push([`${size} hybrid + local query embedding`, 'all 5 scopes', e.p50, e.p95, e.p99]);
      await withEmbed.close();
      rows.push([`${size} RSS of this process (MB)`, '', rssMb(), '', '']);
      if (size === 10_000) await coldCli(home, rows);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }
  printTable(
    'Recall latency (ms; limit 10; stored vectors are 512-d hashes, queries from the corpus vocabulary)',
    ['store / mode', 'scopes', 'p50', 'p95', 'p99'],
    rows,
  );
}

/** Wall time of a fresh `strata recall` process: node start, config, LanceDB open, model load, query. */
async function coldCli(home: string, rows: Array<Array<string | number>>): Promise<void> {
  const bin = resolve(import.meta.dirname, '../bin/strata.js');
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, '--home', home, 'recall', `pen ka lo mi ${i}`, '--json'], {
      encoding: 'utf8',
      env: { ...process.env, LANCEDB_LOG: 'error' },
    });
    samples.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`cold recall failed: ${r.stderr}`);
  }
  const s = summarize(samples);
  rows.push(['10000 cold `strata recall` process (local model)', 'wall ms, 5 runs', s.p50, s.p95, Math.max(...samples)]);
}
