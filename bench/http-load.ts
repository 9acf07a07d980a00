/**
 * HTTP API under load: N concurrent recall clients (default 50) against `strata serve`'s handler
 * on real loopback HTTP while one writer stores memories. Reports recall p50/p95/p99, throughput
 * and errors. The store is seeded first; a 512-d hash embedder keeps both channels (lexical and
 * vector) active without a model download. Run: `npx tsx bench/http-load.ts [--clients 50] [--seed 2000]`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Strata } from '../src/strata.js';
import { resolveCaller } from '../src/core/caller.js';
import { startHttpServer } from '../src/hosts/http/server.js';
import { printTable } from './lib/table.js';
import { summarize } from './lib/stats.js';
import { createHashEmbedder, makeSentence, makeVocabulary, rng } from './lib/synthetic.js';

export interface RecallLoadOptions {
  /** e.g. http://127.0.0.1:7777 */
  baseUrl: string;
  clients: number;
  requestsPerClient: number;
  /** Memories the writer stores while the readers run. */
  writes: number;
  queries: string[];
  writeTexts: string[];
  token?: string;
}

export interface RecallLoadResult {
  latenciesMs: number[];
  errors: string[];
  writes: number;
  writeLatenciesMs: number[];
  wallMs: number;
}

/** Drives the load and collects every failure (status or network) instead of stopping at the first. */
export async function driveRecallLoad(options: RecallLoadOptions): Promise<RecallLoadResult> {
  const headers = { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
  const errors: string[] = [];
  const latenciesMs: number[] = [];
  const writeLatenciesMs: number[] = [];
  let writes = 0;
  const send = async (path: string, body: unknown, into: number[]) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${options.baseUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (!res.ok) errors.push(`${path} ${res.status}: ${text.slice(0, 200)}`);
      else into.push(performance.now() - t0);
      return res.ok;
    } catch (error) {
      errors.push(`${path}: ${(error as Error).message}`);
      return false;
    }
  };
  const start = performance.now();
  const writer = (async () => {
    for (let i = 0; i < options.writes; i += 1) {
      if (await send('/memories', { text: options.writeTexts[i % options.writeTexts.length]!, category: 'fact' }, writeLatenciesMs))
        writes += 1;
    }
  })();
  const readers = Array.from({ length: options.clients }, async (_, c) => {
    for (let i = 0; i < options.requestsPerClient; i += 1) {
      await send('/recall', { query: options.queries[(c * 31 + i) % options.queries.length]!, limit: 5 }, latenciesMs);
    }
  });
  await Promise.all([writer, ...readers]);
  return { latenciesMs, errors, writes, writeLatenciesMs, wallMs: performance.now() - start };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

export async function runHttpLoadBench(
  options: { clients?: number; requestsPerClient?: number; seed?: number; writes?: number } = {},
): Promise<RecallLoadResult> {
  const clients = options.clients ?? arg('clients', 50);
  const requestsPerClient = options.requestsPerClient ?? arg('requests', 20);
  const seedCount = options.seed ?? arg('seed', 2000);
  const writeCount = options.writes ?? arg('writes', 200);
  const random = rng(42);
  const vocab = makeVocabulary(3000, random);
  const home = await mkdtemp(join(tmpdir(), 'strata-http-bench-'));
  await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
  const strata = await Strata.open({ home, embedder: createHashEmbedder(512) });
  try {
    const items = Array.from({ length: seedCount }, (_, i) => ({
      text: `${makeSentence(vocab, random)} (${i})`,
      scope: i % 2 ? 'global' : 'agent:bench',
    }));
    for (let i = 0; i < items.length; i += 500) await strata.rememberMany({ items: items.slice(i, i + 500), nearDuplicates: false });
    const server = await startHttpServer({
      strata,
      caller: resolveCaller({ config: strata.config, agentId: 'bench' }),
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const result = await driveRecallLoad({
        baseUrl: server.url,
        clients,
        requestsPerClient,
        writes: writeCount,
        queries: Array.from({ length: 200 }, () => makeSentence(vocab, random, 3, 8)),
        writeTexts: Array.from({ length: writeCount }, (_, i) => `${makeSentence(vocab, random)} [w${i}]`),
      });
      const r = summarize(result.latenciesMs);
      const w = summarize(result.writeLatenciesMs);
      printTable(
        `HTTP API: ${clients} concurrent recall clients + 1 writer (${seedCount} seeded memories, hash-512 embedder)`,
        ['operation', 'requests', 'ok', 'errors', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s'],
        [
          [
            'POST /recall',
            clients * requestsPerClient,
            result.latenciesMs.length,
            clients * requestsPerClient - result.latenciesMs.length,
            r.p50,
            r.p95,
            r.p99,
            (result.latenciesMs.length / result.wallMs) * 1000,
          ],
          [
            'POST /memories',
            writeCount,
            result.writes,
            writeCount - result.writes,
            w.p50,
            w.p95,
            w.p99,
            (result.writes / result.wallMs) * 1000,
          ],
        ],
      );
      if (result.errors.length > 0) process.stdout.write(`\nfirst errors:\n${result.errors.slice(0, 5).join('\n')}\n`);
      return result;
    } finally {
      await server.close();
    }
  } finally {
    await strata.close();
    await rm(home, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runHttpLoadBench();
}
