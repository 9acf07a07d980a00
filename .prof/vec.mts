import pg from 'pg';
import { bm25Sql, candidatePasses, queryTermsSql } from '/work/wt/postgres/src/backends/store-postgres/text-search.js';
import { Params, filterSql } from '/work/wt/postgres/src/backends/store-postgres/sql.js';
import { createPostgresStore } from '/work/wt/postgres/src/backends/store-postgres/index.js';
import { startPostgres, stopPostgres, postgresUrl } from '/work/wt/postgres/test/support/postgres-server.js';
import { hashVector, makeSentence, makeVocabulary, rng } from '/work/wt/postgres/bench/lib/synthetic.js';
import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
const nextId = monotonicFactory();
const server = await startPostgres({ settings: { shared_buffers: '1GB', maintenance_work_mem: '1GB' } });
const url = postgresUrl(server);
const random = rng(1); const vocab = makeVocabulary(20000, rng(7));
const SC = ['global','agent:a','agent:b','agent:c','project:x'];
const mk = (n: number) => Array.from({ length: n }, (_, i) => { const text = makeSentence(vocab, random); const at = new Date(Date.parse('2025-01-01') + i*1000).toISOString();
  return { id: nextId(), text, category: 'fact' as const, scope: SC[i%5]!, importance: 0.5, confidence: 0.9, tags: [], source: { kind: 'import' as const }, createdAt: at, updatedAt: at, validFrom: at, validTo: null, supersedes: null, supersededBy: null, accessCount: 0, lastAccessedAt: null, contentHash: createHash('sha256').update(text).digest('hex'), embeddingModel: 'h', vector: hashVector(text, 512) }; });
try {
  const store = createPostgresStore({ url, schema: 'v' });
  await store.initMeta({ embedderId: 'h', dimensions: 512 });
  const data = mk(10000);
  for (let i = 0; i < 10; i++) await store.insert({ records: data.slice(i*1000, i*1000+1000) });
  await store.optimize();
  const c = new pg.Client({ connectionString: url }); await c.connect();
  const q = JSON.stringify(hashVector('x y z', 512));
  for (const sql of [
    `EXPLAIN (ANALYZE, BUFFERS) SELECT m.id, m.embedding <=> '${q}' AS d FROM v.memories m WHERE m.scope = ANY('{global,agent:a,agent:b,agent:c,project:x}') AND m.valid_to IS NULL AND m.embedding IS NOT NULL ORDER BY m.embedding <=> '${q}' LIMIT 20`,
    `EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM v.memories m`,
    `SELECT pg_size_pretty(pg_total_relation_size('v.memories')), pg_size_pretty(pg_relation_size('v.memories'))`,
    `SELECT attname, attstorage FROM pg_attribute WHERE attrelid = 'v.memories'::regclass AND attname = 'embedding'`,
  ]) { const r = await c.query(sql); console.log(r.rows.map(x => Object.values(x).join(' | ').slice(0, 200)).join('\n')); }
  for (let k = 0; k < 3; k++) { const t = performance.now(); await store.searchVector({ vector: hashVector('a'+k, 512), filter: { scopes: SC }, limit: 20 }); console.log('searchVector', (performance.now() - t).toFixed(1)); }
  for (let k = 0; k < 3; k++) { const qq = makeSentence(vocab, random, 3, 6); const tp = new Params(); const cfg = { index: '"v"."strata_english"', query: 'pg_catalog."english"' };
    const terms = (await c.query(queryTermsSql({ s: '"v"', configs: cfg, query: qq, p: tp }), tp.values)).rows; console.log(qq, JSON.stringify(terms.map(t => [t.lexeme, t.df])));
    const passes = candidatePasses(terms); console.log(JSON.stringify(passes));
    const p = new Params(); const where = filterSql({ scopes: SC }, p);
    const ex = await c.query('EXPLAIN (ANALYZE, BUFFERS) ' + bm25Sql({ s: '"v"', table: 'memories', terms, candidates: passes[0].candidates, avgdl: terms[0].avgdl, where, limit: 20, p }), p.values);
    console.log(ex.rows.map(x => x['QUERY PLAN']).join('\n')); const t = performance.now(); await store.searchText({ query: makeSentence(vocab, random, 3, 6), filter: { scopes: SC }, limit: 20 }); console.log('searchText', (performance.now() - t).toFixed(1)); }
  await c.end(); await store.close();
} finally { await stopPostgres(server); }
