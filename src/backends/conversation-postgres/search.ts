import type pg from 'pg';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationFilter, ConversationIndexHit } from '../../spec/conversation-index.js';
import { wrap } from '../store-postgres/errors.js';
import { checkout } from '../store-postgres/pool.js';
import { Params } from '../store-postgres/sql.js';
import { bm25Sql, candidatePasses, queryTermsSql, type QueryTerm } from '../store-postgres/text-search.js';
import { FTS_TEXT, TERM_TABLES, TURNS } from './ddl.js';
import type { IndexState } from './open.js';
import { documentOf, selectList, vectorOf, type TurnRow } from './rows.js';

export function checkLimit(limit: number, argument = 'limit'): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidArgumentError({ argument, message: `${argument} must be an integer from 1 to 1000.` });
}

const usable = (v: unknown): v is string => typeof v === 'string' && !v.includes('\u0000');

/**
 * WHERE conditions over alias `m`, values as bind parameters; null when the filter can match
 * nothing (an empty agent or role list, or a value no stored text can hold).
 */
export function filterSql(filter: ConversationFilter, p: Params): string | null {
  const parts = ['true'];
  if (filter.agentIds !== undefined) {
    const agents = filter.agentIds.filter(usable);
    if (agents.length === 0) return null;
    parts.push(`m.agent_id = ANY(${p.add(agents, 'text[]')})`);
  }
  if (filter.sessionKey !== undefined) {
    if (!usable(filter.sessionKey)) return null;
    parts.push(`m.session_key = ${p.add(filter.sessionKey)}`);
  }
  if (filter.roles !== undefined) {
    const roles = filter.roles.filter(usable);
    if (roles.length === 0) return null;
    parts.push(`m.role = ANY(${p.add(roles, 'text[]')})`);
  }
  return parts.join(' AND ');
}

/** BM25 top k, as the memory store computes it (store-postgres/text-search.ts), over this index's own statistics. */
export async function searchText(options: {
  pool: pg.Pool;
  st: IndexState;
  query: string;
  limit: number;
  filter: ConversationFilter;
  withVectors?: boolean;
}): Promise<ConversationIndexHit[]> {
  const { pool, st } = options;
  const query = String(options.query ?? '')
    .replaceAll('\u0000', ' ')
    .trim();
  if (query === '' || filterSql(options.filter, new Params()) === null) return [];
  const tp = new Params();
  const tables = { terms: TERM_TABLES.terms, stats: TERM_TABLES.stats, ftsText: FTS_TEXT };
  const terms = (
    await wrap('searchText', () =>
      pool.query<QueryTerm & { avgdl: number }>(queryTermsSql({ s: st.s, configs: st.textSearch, query, p: tp, tables }), tp.values),
    )
  ).rows;
  if (terms.length === 0) return [];
  let rows: Array<TurnRow & { score: number }> = [];
  for (const pass of candidatePasses(terms)) {
    const p = new Params();
    const where = filterSql(options.filter, p)!;
    const top = bm25Sql({
      s: st.s,
      table: TURNS,
      terms,
      candidates: pass.candidates,
      avgdl: terms[0]!.avgdl,
      where,
      limit: options.limit,
      p,
    });
    rows = (
      await wrap('searchText', () =>
        pool.query<TurnRow & { score: number }>(
          `WITH top AS MATERIALIZED (${top})
      SELECT ${selectList('m')}${options.withVectors ? ', m.embedding::text AS embedding' : ''}, top.score FROM top JOIN ${st.t} m ON m.id = top.id ORDER BY top.score DESC, m.id`,
          p.values,
        ),
      )
    ).rows;
    const kth = rows[options.limit - 1]?.score;
    if (pass.leftOutBound === 0 || (kth !== undefined && kth >= pass.leftOutBound)) break;
  }
  return rows.map((row) => ({ document: documentOf(row), score: row.score, ...(options.withVectors ? { vector: vectorOf(row) } : {}) }));
}

/** Cosine nearest neighbours through the HNSW index; filtered scans iterate until `limit` rows pass (pgvector >= 0.8). */
export async function searchVector(options: {
  pool: pg.Pool;
  st: IndexState;
  dimensions: number;
  efSearch: number;
  vector: number[];
  limit: number;
  filter: ConversationFilter;
}): Promise<ConversationIndexHit[]> {
  const { st, dimensions } = options;
  const p = new Params();
  const where = filterSql(options.filter, p);
  if (where === null || dimensions === 0) return [];
  if (!Array.isArray(options.vector) || options.vector.length !== dimensions || !options.vector.every(Number.isFinite)) {
    throw new InvalidArgumentError({
      argument: 'vector',
      message: `Query vector has ${options.vector?.length} dimensions but the conversation index holds ${dimensions}-dimensional vectors; embed the query with the index's embedder.`,
    });
  }
  const distance = `m.embedding OPERATOR(${st.vectorSchema}.<=>) ${p.add(JSON.stringify(options.vector), `${st.vector}(${dimensions})`)}`;
  const sql = `WITH hits AS MATERIALIZED (SELECT m.id, ${distance} AS distance FROM ${st.t} m
      WHERE ${where} AND m.embedding IS NOT NULL ORDER BY ${distance} LIMIT ${p.add(options.limit, 'int')})
    SELECT ${selectList('m')}, m.embedding::text AS embedding, hits.distance FROM hits JOIN ${st.t} m ON m.id = hits.id ORDER BY hits.distance, m.id`;
  return wrap('searchVector', async () => {
    const { client, release } = await checkout(options.pool);
    try {
      const ef = Math.min(1000, Math.max(options.efSearch, options.limit * 2));
      await client.query(
        `BEGIN; SET LOCAL hnsw.ef_search = ${ef}${st.iterativeScan ? "; SET LOCAL hnsw.iterative_scan = 'relaxed_order'" : ''}`,
      );
      const { rows } = await client.query<TurnRow & { distance: number | null }>(sql, p.values);
      await client.query('COMMIT');
      return rows
        .filter((r) => r.distance !== null && Number.isFinite(r.distance))
        .map((row) => ({ document: documentOf(row), vector: vectorOf(row), score: 1 - (row.distance as number) }));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      release();
    }
  });
}
