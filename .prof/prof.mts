import pg from 'pg';
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
  for (const dims of [0, 512]) {
    const store = createPostgresStore({ url, schema: `p${dims}` });
    await store.initMeta({ embedderId: 'h', dimensions: dims });
    const data = mk(3000).map(r => dims ? r : { ...r, vector: null });
    for (let i = 0; i < 3; i++) { const t = performance.now(); await store.insert({ records: data.slice(i*1000, i*1000+1000) }); console.log(`dims ${dims} insert 1000: ${(performance.now()-t).toFixed(0)} ms`); }
    await store.close();
  }
  const c = new pg.Client({ connectionString: url }); await c.connect();
  await c.query('DROP TRIGGER memories_terms_ins ON p512.memories');
  const store = createPostgresStore({ url, schema: 'p512' });
  let t = performance.now(); await store.insert({ records: mk(1000) }); console.log(`no trigger insert 1000: ${(performance.now()-t).toFixed(0)} ms`);
  await c.query('DROP INDEX p512.memories_embedding_hnsw');
  t = performance.now(); await store.insert({ records: mk(1000) }); console.log(`no trigger no hnsw insert 1000: ${(performance.now()-t).toFixed(0)} ms`);
  await c.query('DROP INDEX p512.memories_tsv');
  t = performance.now(); await store.insert({ records: mk(1000) }); console.log(`no gin: ${(performance.now()-t).toFixed(0)} ms`);
  t = performance.now(); await c.query(`CREATE INDEX ON p512.memories USING hnsw ((embedding::"public".vector(512)) "public".vector_cosine_ops)`); console.log(`hnsw build 6000: ${(performance.now()-t).toFixed(0)} ms`);
  await c.query('ANALYZE p512.memories');
  const q = JSON.stringify(hashVector('x y z', 512));
  const ex = await c.query(`EXPLAIN ANALYZE SELECT m.id FROM p512.memories m WHERE m.scope = ANY('{global,agent:a}') AND m.valid_to IS NULL AND m.embedding IS NOT NULL ORDER BY m.embedding::"public".vector(512) OPERATOR("public".<=>) '${q}'::"public".vector(512) LIMIT 20`);
  console.log(ex.rows.map(r => r['QUERY PLAN']).join('\n'));
  await c.end(); await store.close();
} finally { await stopPostgres(server); }
