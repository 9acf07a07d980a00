import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import type { RebuildHandle, StoredMemory } from '../../spec/index.js';
import { createMemoryIndexes, createTermsTriggers, recomputeTermStats, typedEmbeddingSql, vectorIndexSql } from './ddl.js';
import { wrap } from './errors.js';
import { SCHEMA_VERSION, validateBatch } from './meta.js';
import { inTransaction } from './pool.js';
import { chunks, ident, Params } from './sql.js';
import type { StoreState } from './state.js';
import { insertSql } from './writes.js';

/**
 * `reembed` writes a new table beside the live one (same columns, the new dimensions' check),
 * builds its indexes, then swaps it in one transaction: drop `memories`, rename the new table and
 * its indexes, re-create the term triggers, recount the BM25 statistics, record the new embedder.
 * Readers see the old table until the commit and the new one after it. Access statistics live in
 * their own table keyed by id, so they carry over. The caller holds `withWriteLock` throughout,
 * so no write lands in the old table after it was copied.
 */
export async function startRebuild(options: {
  pool: pg.Pool;
  st: StoreState;
  embedderId: string;
  dimensions: number;
  annThreshold: number;
  onCommit(): void;
}): Promise<RebuildHandle> {
  const { pool, st, embedderId, dimensions } = options;
  const table = `memories_rebuild_${randomBytes(4).toString('hex')}`;
  const t = `${st.s}.${ident(table)}`;
  await wrap('beginRebuild', async () => {
    await pool.query(`CREATE TABLE ${t} (LIKE ${st.s}.memories INCLUDING DEFAULTS INCLUDING STORAGE)`);
    await pool.query(`ALTER TABLE ${t} ADD CONSTRAINT ${ident(`${table}_pkey`)} PRIMARY KEY (id)`);
    if (dimensions > 0) await pool.query(typedEmbeddingSql(st.s, table, st.vector, dimensions));
  });
  let state: 'open' | 'committed' | 'aborted' = 'open';
  const assertOpen = () => {
    if (state !== 'open') throw new StorageError({ message: `This rebuild was already ${state}; start a new one with beginRebuild.` });
  };

  return {
    async insert({ records }: { records: StoredMemory[] }) {
      assertOpen();
      validateBatch(records, dimensions);
      for (const batch of chunks(records, 1000)) {
        const p = new Params();
        await wrap('rebuild insert', () => pool.query(insertSql({ st, table, records: batch, p, withAccess: false }), p.values));
      }
    },
    async commit() {
      assertOpen();
      await wrap('rebuild commit', async () => {
        // Index builds run before the swap, while readers still use the old table.
        await createMemoryIndexes(pool, st.s, table);
        const rows = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]?.n ?? 0);
        if (dimensions > 0 && rows >= options.annThreshold) await pool.query(vectorIndexSql(st.s, table, st.vector));
        await inTransaction(pool, async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${st.schema}:meta`]);
          await tx.query(`DROP TABLE ${st.s}.memories`);
          await tx.query(`ALTER TABLE ${t} RENAME TO memories`);
          await renameParts(tx, st.s, table);
          await createTermsTriggers(tx, st.s, 'memories');
          await recomputeTermStats(tx, st.s, 'memories');
          await tx.query(
            `INSERT INTO ${st.s}.store_meta (embedder_id, dimensions, schema_version, created_at) VALUES ($1, $2, $3, now())
            ON CONFLICT (singleton) DO UPDATE SET embedder_id = excluded.embedder_id, dimensions = excluded.dimensions,
              schema_version = excluded.schema_version, created_at = excluded.created_at`,
            [embedderId, dimensions, SCHEMA_VERSION],
          );
        });
      });
      state = 'committed';
      options.onCommit();
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await wrap('rebuild abort', () => pool.query(`DROP TABLE IF EXISTS ${t}`));
    },
  };
}

/** Index and constraint names follow the table's (`<table>_tsv` -> `memories_tsv`). */
async function renameParts(client: pg.ClientBase, s: string, from: string): Promise<void> {
  const parts = await client.query<{ name: string; kind: 'index' | 'check' }>(
    `
    SELECT c.relname AS name, 'index' AS kind FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = to_regclass($1)
    UNION ALL SELECT conname, 'check' FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'c'`,
    [`${s}.memories`],
  );
  for (const part of parts.rows) {
    if (!part.name.startsWith(`${from}_`)) continue;
    const to = ident(`memories_${part.name.slice(from.length + 1)}`);
    if (part.kind === 'index') await client.query(`ALTER INDEX ${s}.${ident(part.name)} RENAME TO ${to}`);
    else await client.query(`ALTER TABLE ${s}.memories RENAME CONSTRAINT ${ident(part.name)} TO ${to}`);
  }
}
