/**
 * The service rows of `npm run bench -- postgres`: the HTTP API (`strata serve`'s handler on real
 * loopback HTTP, per-agent tokens on) under N concurrent recall clients plus one writer, on
 * LanceDB and on PostgreSQL; and conversation search latency at N indexed turns on each backend.
 * A 512-d hash embedder keeps both channels (lexical and vector) active without a model.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Strata } from '../src/strata.js';
import { resolveCaller } from '../src/core/caller.js';
import { startHttpServer } from '../src/hosts/http/server.js';
import { openTokenRegistry } from '../src/remote/token-registry.js';
import { mintToken } from '../src/remote/tokens.js';
import type { L0Record } from '../src/spec/conversation.js';
import { driveRecallLoad } from './http-load.js';
import { createHashEmbedder, makeSentence, makeVocabulary, rng } from './lib/synthetic.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

export interface ServiceBenchOptions {
  url: string;
  /** Memories seeded before the load. */
  seed: number;
  clients: number;
  requestsPerClient: number;
  writes: number;
  /** Conversation turns indexed per measurement. */
  turns: number[];
}

type Row = Array<string | number>;

async function openOn(backend: 'lancedb' | 'postgres', url: string): Promise<{ strata: Strata; cleanup(): Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), `strata-bench-svc-${backend}-`));
  const schema = `strata_bench_svc_${randomBytes(3).toString('hex')}`;
  const config =
    backend === 'postgres'
      ? { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } }
      : { embedder: { provider: 'none' }, llm: { provider: 'none' } };
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  const strata = await Strata.open({ home, env: { ...process.env, STRATA_POSTGRES_URL: url }, embedder: createHashEmbedder(512) });
  return {
    strata,
    async cleanup() {
      await strata.close();
      await rm(home, { recursive: true, force: true });
      if (backend === 'postgres') {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

async function httpRow(backend: 'lancedb' | 'postgres', o: ServiceBenchOptions): Promise<Row[]> {
  const random = rng(42);
  const vocab = makeVocabulary(3000, random);
  const { strata, cleanup } = await openOn(backend, o.url);
  try {
    const items = Array.from({ length: o.seed }, (_, i) => ({
      text: `${makeSentence(vocab, random)} (${i})`,
      scope: i % 2 ? 'global' : 'agent:bench',
    }));
    for (let i = 0; i < items.length; i += 500) await strata.rememberMany({ items: items.slice(i, i + 500), nearDuplicates: false });
    const tokens = await openTokenRegistry({
      config: strata.config,
      home: strata.home,
      env: { ...process.env, STRATA_POSTGRES_URL: o.url },
    });
    const { token, record } = mintToken({ agentId: 'bench' });
    await tokens.add(record);
    const server = await startHttpServer({ strata, caller: resolveCaller({ config: strata.config }), tokens, host: '127.0.0.1', port: 0 });
    try {
      const result = await driveRecallLoad({
        baseUrl: server.url,
        token,
        clients: o.clients,
        requestsPerClient: o.requestsPerClient,
        writes: o.writes,
        queries: Array.from({ length: 200 }, () => makeSentence(vocab, random, 3, 8)),
        writeTexts: Array.from({ length: o.writes }, (_, i) => `${makeSentence(vocab, random)} [w${i}]`),
      });
      const r = summarize(result.latenciesMs);
      const w = summarize(result.writeLatenciesMs);
      const requests = o.clients * o.requestsPerClient;
      if (result.errors.length > 0) process.stdout.write(`\n${backend} first errors:\n${result.errors.slice(0, 5).join('\n')}\n`);
      return [
        [
          backend,
          'recall',
          requests,
          requests - result.latenciesMs.length,
          r.p50,
          r.p95,
          (result.latenciesMs.length / result.wallMs) * 1000,
        ],
        [backend, 'remember', o.writes, o.writes - result.writes, w.p50, w.p95, (result.writes / result.wallMs) * 1000],
      ];
    } finally {
      await server.close();
      await tokens.close();
    }
  } finally {
    await cleanup();
  }
}

async function conversationRows(backend: 'lancedb' | 'postgres', o: ServiceBenchOptions): Promise<Row[]> {
  const rows: Row[] = [];
  for (const n of o.turns) {
    const random = rng(n);
    const vocab = makeVocabulary(5000, rng(9));
    const { strata, cleanup } = await openOn(backend, o.url);
    try {
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      const records: L0Record[] = Array.from({ length: n }, (_, i) => ({
        sessionKey: `s${i % 50}`,
        sessionId: `s${i % 50}`,
        agentId: `agent${i % 5}`,
        host: 'openclaw',
        id: `t${i}`,
        role: i % 2 ? 'assistant' : 'user',
        content: makeSentence(vocab, random, 8, 20),
        timestamp: base + i * 60_000,
        recordedAt: new Date(base + i * 60_000).toISOString(),
      }));
      const t0 = performance.now();
      for (let i = 0; i < records.length; i += 1000) await strata.appendConversation({ records: records.slice(i, i + 1000) });
      const indexMs = performance.now() - t0;
      const queries = Array.from({ length: 100 }, () => makeSentence(vocab, random, 3, 6));
      for (const q of queries.slice(0, 10)) await strata.searchConversations({ query: q, limit: 10, agentIds: ['agent1'] });
      const samples: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        await strata.searchConversations({ query: q, limit: 10, agentIds: ['agent1'] });
        samples.push(performance.now() - t);
      }
      const s = summarize(samples);
      rows.push([`${n} turns`, backend, (n / indexMs) * 1000, s.p50, s.p95]);
    } finally {
      await cleanup();
    }
  }
  return rows;
}

export async function runServiceBench(o: ServiceBenchOptions, parts: Set<string>): Promise<void> {
  if (parts.has('http')) {
    const rows: Row[] = [];
    for (const backend of ['lancedb', 'postgres'] as const) rows.push(...(await httpRow(backend, o)));
    printTable(
      `HTTP service under load: ${o.clients} concurrent recall clients x ${o.requestsPerClient} + 1 writer, per-agent token, ${o.seed} seeded memories (hash-512)`,
      ['store', 'operation', 'requests', 'errors', 'p50 ms', 'p95 ms', 'req/s'],
      rows,
    );
  }
  if (parts.has('conversations')) {
    const rows: Row[] = [];
    for (const backend of ['lancedb', 'postgres'] as const) rows.push(...(await conversationRows(backend, o)));
    printTable(
      'Conversation index: append + index throughput and search latency (hybrid, one agent of 5, limit 10; hash-512)',
      ['size', 'store', 'turns/s indexed', 'search p50 ms', 'search p95 ms'],
      rows,
    );
  }
}
