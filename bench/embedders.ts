/**
 * Embedder throughput: sentences per second for a bulk load (batches of the embedder's size) and
 * for single queries, idle and under load (two busy child processes, one per core here), with the
 * longest event-loop stall seen meanwhile (what a recall or an HTTP request waits while the host
 * embeds). Embedders: local USE-lite on its worker thread and inline (the old way), and the
 * transformers embedder on the model folder in STRATA_BENCH_MODEL (e.g. an ONNX bge-small), when set.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import type { EmbedderV1 } from '../src/spec/index.js';
import { createLocalEmbedder } from '../src/backends/embedder-local/index.js';
import { createTransformersEmbedder } from '../src/backends/embedder-transformers/index.js';
import { printTable } from './lib/table.js';

const SENTENCES = Array.from(
  { length: 256 },
  (_, i) =>
    [
      `Caroline went to the LGBTQ support group on day ${i} and found it powerful.`,
      `We decided to use PostgreSQL 16 for service ${i}.`,
      `My dog Rex ${i} loves running on the beach near Lisbon.`,
      `The deploy pipeline ${i} publishes images after the tests pass.`,
    ][i % 4]!,
);

function startLoad(workers: number): ChildProcess[] {
  const code = 'const end = Date.now() + 600000; while (Date.now() < end) { Math.sqrt(Math.random()); }';
  return Array.from({ length: workers }, () => fork('-e', [code], { execArgv: [], stdio: 'ignore' }));
}

async function measure(embedder: EmbedderV1, texts: string[], single: boolean): Promise<{ perSecond: number; stallMs: number }> {
  let last = performance.now();
  let stall = 0;
  let on = true;
  const tick = () => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    if (on) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  const size = single ? 1 : embedder.maxBatchSize;
  for (let i = 0; i < texts.length; i += size)
    await embedder.doEmbed({ texts: texts.slice(i, i + size), kind: single ? 'query' : 'document' });
  const seconds = (performance.now() - started) / 1000;
  // A loop blocked to the end never ran the timer again: count that last pause too.
  stall = Math.max(stall, performance.now() - last);
  on = false;
  return { perSecond: texts.length / seconds, stallMs: stall };
}

export async function runEmbedderBench(): Promise<void> {
  const candidates: Array<{ name: string; create: () => Promise<EmbedderV1> }> = [
    { name: 'local USE-lite (worker thread)', create: async () => createLocalEmbedder() },
    { name: 'local USE-lite (inline)', create: async () => createLocalEmbedder({ thread: 'inline' }) },
  ];
  const model = process.env.STRATA_BENCH_MODEL;
  if (model) {
    candidates.push({
      name: `transformers ${model.split('/').pop()}`,
      create: async () => {
        const e = createTransformersEmbedder({ model: model.split('/').slice(-2).join('/'), modelPath: model });
        await e.resolveDimensions();
        return e;
      },
    });
  }
  const rows: Array<Array<string | number>> = [];
  for (const candidate of candidates) {
    const embedder = await candidate.create();
    try {
      const loadStart = performance.now();
      await embedder.doEmbed({ texts: ['warm up'], kind: 'query' });
      const load = performance.now() - loadStart;
      for (const loaded of [false, true]) {
        const load2 = loaded ? startLoad(2) : [];
        try {
          const bulk = await measure(embedder, SENTENCES, false);
          const single = await measure(embedder, SENTENCES.slice(0, 48), true);
          const machine = `${loaded ? '+2 busy processes' : 'as is'} (load ${loadavg()[0]!.toFixed(1)})`;
          rows.push([candidate.name, machine, load, bulk.perSecond, bulk.stallMs, single.perSecond, single.stallMs]);
        } finally {
          for (const child of load2) child.kill();
        }
      }
    } finally {
      await embedder.close?.();
    }
  }
  printTable(
    `Embedder throughput on ${cpus().length} cores (sentences/s; stall = longest event-loop pause while embedding; load = 1-min load average)`,
    ['embedder', 'machine', 'first call ms', 'bulk /s', 'bulk stall ms', 'single /s', 'single stall ms'],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await runEmbedderBench();
