import type pg from 'pg';
import type { MemoryFilter, StoreMeta, StoreStats } from '../../spec/index.js';
import { recomputeTermStats, vectorIndexName, vectorIndexSql } from './ddl.js';
import { checkout, inTransaction } from './pool.js';
import { filterSql, ident, Params } from './sql.js';
import type { StoreState } from './state.js';

/**
 * Row counts by scope and category (one GROUP BY), index list and disk size. With a filter only
 * matching rows are counted (the same translation every read uses).
 */
export async function collectStats(options: { pool: pg.Pool; st: StoreState; filter?: MemoryFilter }): Promise<StoreStats> {
  const { pool, st } = options;
  const p = new Params();
  const where = options.filter ? filterSql(options.filter, p) : 'true';
  const [groups, indexes, size] = await Promise.all([
    pool.query<{ scope: string; category: string; total: number; current: number }>(
      `SELECT m.scope, m.category, count(*) AS total,
      count(*) FILTER (WHERE m.valid_to IS NULL) AS current FROM ${st.s}.memories m WHERE ${where} GROUP BY m.scope, m.category`,
      p.values,
    ),
    pool.query<{ name: string; type: string; columns: string }>(
      `SELECT c.relname AS name, am.amname AS type, pg_get_indexdef(i.indexrelid) AS columns
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
      WHERE i.indrelid = to_regclass($1) ORDER BY c.relname`,
      [`${st.s}.memories`],
    ),
    pool.query<{ bytes: number }>('SELECT pg_total_relation_size(to_regclass($1)) AS bytes', [`${st.s}.memories`]),
  ]);
  const out: StoreStats = { rows: 0, current: 0, byScope: {}, byCategory: {}, indexes: [], diskBytes: size.rows[0]?.bytes ?? 0 };
  for (const g of groups.rows) {
    out.rows += g.total;
    out.current += g.current;
    out.byScope[g.scope] = (out.byScope[g.scope] ?? 0) + g.total;
    out.byCategory[g.category] = (out.byCategory[g.category] ?? 0) + g.total;
  }
  out.indexes = indexes.rows.map((i) => ({ name: i.name, type: i.type, columns: indexColumns(i.columns) }));
  return out;
}

/** `CREATE INDEX ... USING gin (tsv)` -> ['tsv']. */
function indexColumns(definition: string): string[] {
  const inside = /USING \w+ \((.*)\)/.exec(definition)?.[1] ?? '';
  return inside
    .split(/,\s*(?![^(]*\))/)
    .map((c) =>
      c
        .trim()
        .replace(/^\(+|\)+$/g, '')
        .replace(/::.*$/, '')
        .replace(/\s.*$/, ''),
    )
    .filter(Boolean);
}

/**
 * VACUUM (ANALYZE) of the store's tables keeps planner statistics fresh and reclaims dead rows
 * (autovacuum does the same on its own schedule; this makes `strata optimize` immediate). It
 * also builds the vector index once the row count calls for it. `force` also recomputes the BM25 term statistics from
 * the rows (a repair; the triggers keep them exact). No REINDEX: HNSW and GIN indexes stay sound
 * under updates and deletes, and rebuilding HNSW takes minutes at 100k rows.
 */
export async function runOptimize(options: {
  pool: pg.Pool;
  st: StoreState;
  meta: StoreMeta | null;
  force: boolean;
  annThreshold: number;
}): Promise<{ indexes: string[] }> {
  const { pool, st, meta } = options;
  if (meta && meta.dimensions > 0) await ensureVectorIndex({ pool, st, threshold: options.annThreshold });
  if (options.force) {
    await inTransaction(pool, async (client) => {
      await client.query(`LOCK TABLE ${st.s}.memories IN SHARE MODE`);
      await recomputeTermStats(client, st.s, 'memories');
    });
  }
  await pool.query(`DELETE FROM ${st.s}.memory_terms WHERE df <= 0`);
  for (const table of ['memories', 'memory_access', 'memory_terms', 'memory_doc_stats']) {
    await pool.query(`VACUUM (ANALYZE) ${st.s}.${table}`);
  }
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = to_regclass($1) ORDER BY c.relname`,
    [`${st.s}.memories`],
  );
  return { indexes: rows.map((r) => r.name) };
}

/**
 * Builds the HNSW index once the store holds `threshold` rows (below that an exact scan is fast,
 * and bulk loads run at full speed: pgvector builds an index several times faster than it inserts
 * into one). One process builds it (advisory lock), concurrently, so writes go on; an index left
 * invalid by an interrupted build is dropped and built again. Returns whether the index is usable.
 */
export async function ensureVectorIndex(options: { pool: pg.Pool; st: StoreState; threshold: number }): Promise<boolean> {
  const { pool, st } = options;
  const name = `${st.schema}.${vectorIndexName('memories')}`;
  const probe = async () =>
    (
      await pool.query<{ docs: number; valid: boolean | null }>(
        `SELECT (SELECT docs FROM ${st.s}.memory_doc_stats) AS docs,
    (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)) AS valid`,
        [name],
      )
    ).rows[0];
  const first = await probe();
  if (first?.valid === true) return true;
  if ((first?.docs ?? 0) < options.threshold) return false;
  const { client, release } = await checkout(pool);
  const key = `strata:${st.schema}:ann`;
  try {
    const got = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]);
    if (!got.rows[0]?.ok) return false;
    try {
      const again = await probe();
      if (again?.valid === true) return true;
      if (again?.valid === false) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${st.s}.${ident(vectorIndexName('memories'))}`);
      await client.query(vectorIndexSql(st.s, 'memories', st.vector, { concurrently: true }));
      return true;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    }
  } finally {
    release();
  }
}
