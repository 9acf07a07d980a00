import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import { recomputeTermStats } from './ddl.js';
import { inTransaction } from './pool.js';
import { ident } from './sql.js';
import { ensureTextSearch, type TextSearchConfigs } from './text-search.js';

/** What a store learns about its database once, after the migrations ran. */
export interface StoreState {
  schema: string;
  /** Quoted schema name. */
  s: string;
  /** Quoted schema of the pgvector extension, and its `vector` type qualified by it. */
  vectorSchema: string;
  vector: string;
  /** pgvector >= 0.8: filtered HNSW scans continue until enough rows pass the filter. */
  iterativeScan: boolean;
  textSearch: TextSearchConfigs;
}

/**
 * Sets up the text-search configuration. When it differs from the one the rows were indexed
 * with (config changed), every row is re-indexed in the same transaction, so searches never mix
 * two tokenisations.
 */
export async function openStore(options: { pool: pg.Pool; schema: string; textSearch: string }): Promise<StoreState> {
  const s = ident(options.schema);
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
    const vectorSchema = ident(row.nspname);
    const textSearch = await ensureTextSearch(client, options.schema, options.textSearch);
    const setting = await client.query<{ value: string }>(`SELECT value FROM ${s}.store_settings WHERE key = 'text_search'`);
    const indexedWith = setting.rows[0]?.value;
    if (indexedWith !== textSearch.index) {
      if (indexedWith !== undefined) {
        await client.query(
          `UPDATE ${s}.memories SET tsv = f.tsv,
          doc_len = (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) FROM unnest(f.tsv) u)
          FROM (SELECT id, to_tsvector($1::regconfig, ${s}.fts_text(text, false)) AS tsv FROM ${s}.memories) f WHERE f.id = memories.id`,
          [textSearch.index],
        );
        await recomputeTermStats(client, s, 'memories');
      }
      await client.query(
        `INSERT INTO ${s}.store_settings (key, value) VALUES ('text_search', $1)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [textSearch.index],
      );
    }
    const [major = 0, minor = 0] = row.extversion.split('.').map(Number);
    return {
      schema: options.schema,
      s,
      vectorSchema,
      vector: `${vectorSchema}.vector`,
      iterativeScan: major > 0 || minor >= 8,
      textSearch,
    };
  });
}
