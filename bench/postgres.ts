/**
 * `npm run bench -- postgres`: the same synthetic corpus in LanceDB and in PostgreSQL + pgvector,
 * side by side in one run: batched insert throughput, then recall latency (lexical, vector,
 * hybrid) through the engine's own recall pipeline at 10k and 100k memories, over all five
 * scopes and over one scope (20% of rows).
 *
 * PostgreSQL: `STRATA_POSTGRES_URL` if set (a schema is created and dropped), else a private
 * server from the test binaries (PostgreSQL 18, pgvector 0.8) with durable settings (fsync on)
 * and shared_buffers / maintenance_work_mem of 1 GB.
 *
 * Flags (after `npm run bench -- postgres`): `--sizes=10000,100000` (memory rows; also
 * `STRATA_BENCH_SIZES`), `--only=memory,http,conversations` (default all), `--clients=50`,
 * `--requests=20` (per client), `--http-seed=2000`, `--writes=200`, `--turns=2000,10000`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import pg from 'pg';
import { createJsonlL0Log } from '../src/backends/l0-jsonl/index.js';
import { createLanceDbStore } from '../src/backends/store-lancedb/index.js';
import { createPostgresStore } from '../src/backends/store-postgres/index.js';
import { createEmbeddingService } from '../src/core/embedding/embedding-service.js';
import { MemoryEngine } from '../src/core/engine/memory-engine.js';
import type { MemoryStoreV1, StoredMemory } from '../src/spec/index.js';
import { postgresUrl, startPostgres, stopPostgres, type PostgresServerInfo } from '../test/support/postgres-server.js';
import { createHashEmbedder, hashVector, makeSentence, makeVocabulary, rng } from './lib/synthetic.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const SCOPES = ['global', 'agent:a', 'agent:b', 'agent:c', 'project:x'];
const DIMS = 512;
const BATCH = 1000;
const QUERIES = 200;
const nextId = monotonicFactory();

function records(n: number, seed: number, embedderId: string): StoredMemory[] {
  const random = rng(seed);
  const vocab = makeVocabulary(20_000, rng(7));
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  return Array.from({ length: n }, (_, i) => {
    const text = makeSentence(vocab, random);
    const at = new Date(base + i * 1000).toISOString();
    return {
      id: nextId(),
      text,
      category: 'fact',
      scope: SCOPES[i % SCOPES.length]!,
      importance: random(),
      confidence: 0.9,
      tags: [],
      source: { kind: 'import' },
      createdAt: at,
      updatedAt: at,
      validFrom: at,
      validTo: null,
      supersedes: null,
      supersededBy: null,
      accessCount: 0,
      lastAccessedAt: null,
      contentHash: createHash('sha256').update(text).digest('hex'),
      embeddingModel: embedderId,
      vector: hashVector(text, DIMS),
    };
  });
}

function queries(seed: number): string[] {
  const random = rng(seed);
  const vocab = makeVocabulary(20_000, rng(7));
  return Array.from({ length: QUERIES }, () => makeSentence(vocab, random, 3, 6));
}

interface Backend {
  name: string;
  open(): Promise<MemoryStoreV1>;
  cleanup(): Promise<void>;
}

async function lanceBackend(size: number): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), `strata-bench-pg-lance-${size}-`));
  return {
    name: 'lancedb',
    open: async () => createLanceDbStore({ path: join(dir, 'store') }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresBackend(url: string, size: number): Promise<Backend> {
  const schema = `strata_bench_${size}_${randomBytes(3).toString('hex')}`;
  return {
    name: 'postgres',
    open: async () => createPostgresStore({ url, schema, poolSize: 10 }),
    async cleanup() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

async function timeRecall(engine: MemoryEngine, qs: string[], scopes: string[]) {
  for (const q of qs.slice(0, 10)) await engine.recall({ query: q, scopes, limit: 10 });
  const samples: number[] = [];
  for (const q of qs) {
    const t = performance.now();
    await engine.recall({ query: q, scopes, limit: 10 });
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

async function measure(
  backend: Backend,
  size: number,
  rows: Array<Array<string | number>>,
  writes: Array<Array<string | number>>,
): Promise<void> {
  const embedder = createHashEmbedder(DIMS);
  const store = await backend.open();
  await store.initMeta({ embedderId: embedder.id, dimensions: DIMS });
  const data = records(size, size, embedder.id);
  const t0 = performance.now();
  for (let i = 0; i < data.length; i += BATCH) await store.insert({ records: data.slice(i, i + BATCH) });
  const insertMs = performance.now() - t0;
  const t1 = performance.now();
  await store.optimize();
  const optimizeMs = performance.now() - t1;
  writes.push([`${size} ${backend.name}`, (size / insertMs) * 1000, insertMs / 1000, optimizeMs / 1000]);
  const ctx = {
    store,
    embeddings: createEmbeddingService({ embedder }),
    embedderId: embedder.id,
    dimensions: DIMS,
    write: { redactSecrets: true, maxChars: 4000, nearDuplicateThreshold: 0.95 },
    now: () => new Date(),
    // Recall never reads the L0 log; a log under a path nothing writes to (files appear only on append).
    l0: createJsonlL0Log({ home: join(tmpdir(), 'strata-bench-postgres-no-l0') }),
  };
  const qs = queries(size + 1);
  for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
    const engine = new MemoryEngine(ctx, { mode });
    const all = await timeRecall(engine, qs, SCOPES);
    const one = await timeRecall(engine, [...qs].reverse(), ['agent:a']);
    rows.push([`${size} ${mode}`, backend.name, 'all 5 scopes', all.p50, all.p95]);
    rows.push([`${size} ${mode}`, backend.name, '1 scope (20%)', one.p50, one.p95]);
  }
  await store.close();
}

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}
const numbers = (text: string) =>
  text
    .split(',')
    .map(Number)
    .filter((n) => Number.isFinite(n) && n > 0);

export async function runPostgresBench(sizes = numbers(flag('sizes') ?? process.env.STRATA_BENCH_SIZES ?? '10000,100000')): Promise<void> {
  const parts = new Set((flag('only') ?? 'memory,http,conversations').split(','));
  let server: PostgresServerInfo | null = null;
  let url = process.env.STRATA_POSTGRES_URL;
  if (!url) {
    server = await startPostgres({
      settings: { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', shared_buffers: '1GB', maintenance_work_mem: '1GB' },
    });
    url = postgresUrl(server);
  }
  try {
    if (parts.has('http') || parts.has('conversations')) {
      const { runServiceBench } = await import('./postgres-service.js');
      await runServiceBench(
        {
          url,
          seed: Number(flag('http-seed') ?? 2000),
          clients: Number(flag('clients') ?? 50),
          requestsPerClient: Number(flag('requests') ?? 20),
          writes: Number(flag('writes') ?? 200),
          turns: numbers(flag('turns') ?? '2000,10000'),
        },
        parts,
      );
    }
    for (const size of parts.has('memory') ? sizes : []) {
      // Tables per size, so a long 100k run still leaves the 10k figures behind.
      const rows: Array<Array<string | number>> = [];
      const writes: Array<Array<string | number>> = [];
      for (const backend of [await lanceBackend(size), await postgresBackend(url, size)]) {
        try {
          await measure(backend, size, rows, writes);
        } finally {
          await backend.cleanup();
        }
      }
      printTables(rows, writes);
    }
  } finally {
    if (server) await stopPostgres(server);
  }
}

function printTables(rows: Array<Array<string | number>>, writes: Array<Array<string | number>>): void {
  printTable(
    `Batched insert (${BATCH} rows per call, ${DIMS}-d vectors; PostgreSQL keeps its HNSW index as rows arrive)`,
    ['rows / store', 'rows/s', 'insert s', 'optimize s'],
    writes,
  );
  printTable(
    'Recall through the engine (ms; limit 10; 512-d hash vectors, hash query embedder; queries from the corpus vocabulary)',
    ['size / mode', 'store', 'scopes', 'p50', 'p95'],
    rows,
  );
}
