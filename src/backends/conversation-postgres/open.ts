import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import { recomputeTermStats } from '../store-postgres/ddl.js';
import { inTransaction } from '../store-postgres/pool.js';
import { ident } from '../store-postgres/sql.js';
import { ensureTextSearch, type TextSearchConfigs } from '../store-postgres/text-search.js';
import { FTS_TEXT, TERM_TABLES, TURNS } from './ddl.js';

/** What an index learns about its database once, after its migrations ran. */
export interface IndexState {
  /** Quoted schema, and the turns table in it. */
  s: string;
  t: string;
  vectorSchema: string;
  vector: string;
  /** pgvector >= 0.8: filtered HNSW scans continue until enough rows pass the filter. */
  iterativeScan: boolean;
  textSearch: TextSearchConfigs;
}

/**
 * Text-search setup, under the schema's migration lock. When the configuration differs from the
 * one the rows were indexed with, every row is re-tokenised in the same transaction, so searches
 * never mix two tokenisations.
 */
export async function openIndex(options: { pool: pg.Pool; schema: string; textSearch: string }): Promise<IndexState> {
  const s = ident(options.schema);
  const t = `${s}.${ident(TURNS)}`;
  return inTransaction(options.pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${options.schema}:migrate`]);
    const ext = await client.query<{ nspname: string; extversion: string }>(
      `SELECT n.nspname, e.extversion FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
    );
    const row = ext.rows[0];
    if (!row)
      throw new StorageError({
        message: 'The pgvector extension was removed from this database; run CREATE EXTENSION vector; as its owner.',
      });
    const textSearch = await ensureTextSearch(client, options.schema, options.textSearch);
    const setting = await client.query<{ value: string }>(`SELECT value FROM ${s}.conversation_state WHERE key = 'text_search'`);
    const indexedWith = setting.rows[0]?.value;
    if (indexedWith !== textSearch.index) {
      if (indexedWith !== undefined) {
        await client.query(
          `UPDATE ${t} c SET tsv = f.tsv,
          doc_len = (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) FROM unnest(f.tsv) u)
          FROM (SELECT id, to_tsvector($1::regconfig, ${s}.${ident(FTS_TEXT)}(text, false)) AS tsv FROM ${t}) f WHERE f.id = c.id`,
          [textSearch.index],
        );
        await recomputeTermStats(client, s, TURNS, TERM_TABLES);
      }
      await client.query(
        `INSERT INTO ${s}.conversation_state (key, value) VALUES ('text_search', $1)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [textSearch.index],
      );
    }
    const [major = 0, minor = 0] = row.extversion.split('.').map(Number);
    const vectorSchema = ident(row.nspname);
    return { s, t, vectorSchema, vector: `${vectorSchema}.vector`, iterativeScan: major > 0 || minor >= 8, textSearch };
  });
}
