import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import type { Migration } from './migrate.js';
import { ident } from './sql.js';

/**
 * The memory store's tables, in schema `s`:
 * - `memories`: one row per memory (history rows carry valid_to), the embedding as a pgvector
 *   column typed with the dimensions at initMeta (a re-embed builds a new table), `tsv` and
 *   `doc_len` for full-text search. The HNSW index is built once the table is large enough.
 * - `memory_access`: access statistics, so `touch` never rewrites a memory row.
 * - `memory_terms` / `memory_doc_stats`: document frequency per lexeme, row count and total
 *   length, kept exact by statement-level triggers, for BM25 scoring (text-search.ts).
 * - `store_meta`: embedder identity; `store_settings`: the text-search configuration in force.
 */
export const MEMORY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'memories, access statistics, term statistics, meta',
    async up(client, schema) {
      const s = ident(schema);
      const vector = await ensureVectorExtension(client);
      await client.query(`CREATE TABLE ${s}.store_meta (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), embedder_id text NOT NULL,
        dimensions integer NOT NULL, schema_version integer NOT NULL, created_at timestamptz NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.store_settings (key text PRIMARY KEY, value text NOT NULL)`);
      await client.query(memoriesTableSql(s, 'memories', vector));
      await client.query(`CREATE TABLE ${s}.memory_access (
        id text PRIMARY KEY, access_count bigint NOT NULL DEFAULT 0, last_accessed_at timestamptz)`);
      await client.query(`CREATE TABLE ${s}.memory_terms (lexeme text PRIMARY KEY, df bigint NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.memory_doc_stats (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), docs bigint NOT NULL, total_len bigint NOT NULL)`);
      await client.query(`INSERT INTO ${s}.memory_doc_stats (docs, total_len) VALUES (0, 0)`);
      await client.query(ftsTextFunctionSql(s));
      await client.query(termsTriggerFunctionSql(s));
      await createMemoryIndexes(client, s, 'memories');
      await createTermsTriggers(client, s, 'memories');
    },
  },
];

/** pgvector must be installed in the database; returns the schema-qualified `vector` type. */
export async function ensureVectorExtension(client: pg.PoolClient): Promise<string> {
  const found = await client.query<{ nspname: string }>(
    `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  );
  if (found.rows[0]) return `${ident(found.rows[0].nspname)}.vector`;
  try {
    await client.query('SAVEPOINT vector_ext');
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT vector_ext');
    throw new StorageError({
      message: `The pgvector extension is not installed in this database and this user may not install it (${(error as Error).message}). Ask the database owner to run: CREATE EXTENSION vector;`,
      cause: error,
    });
  }
  const again = await client.query<{ nspname: string }>(
    `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
  );
  return `${ident(again.rows[0]?.nspname ?? 'public')}.vector`;
}

export function memoriesTableSql(s: string, table: string, vector: string): string {
  return `CREATE TABLE ${s}.${ident(table)} (
    id text PRIMARY KEY, text text NOT NULL, category text NOT NULL, scope text NOT NULL,
    importance double precision NOT NULL, confidence double precision NOT NULL, tags text[] NOT NULL DEFAULT '{}',
    source jsonb NOT NULL, source_kind text NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
    valid_from timestamptz NOT NULL, valid_to timestamptz, supersedes text, superseded_by text,
    content_hash text NOT NULL, embedding_model text NOT NULL, embedding ${vector},
    tsv tsvector NOT NULL, doc_len integer NOT NULL)`;
}

/** Secondary indexes (not the vector index: that needs the dimensions, see vectorIndexSql). */
export async function createMemoryIndexes(client: pg.ClientBase | pg.Pool, s: string, table: string): Promise<void> {
  const t = `${s}.${ident(table)}`;
  await client.query(`CREATE INDEX ${ident(`${table}_scope_created`)} ON ${t} (scope, created_at, id)`);
  await client.query(`CREATE INDEX ${ident(`${table}_scope_hash`)} ON ${t} (scope, content_hash)`);
  await client.query(`CREATE INDEX ${ident(`${table}_current_created`)} ON ${t} (created_at, id) WHERE valid_to IS NULL`);
  await client.query(`CREATE INDEX ${ident(`${table}_tsv`)} ON ${t} USING gin (tsv)`);
  await client.query(`CREATE INDEX ${ident(`${table}_tags`)} ON ${t} USING gin (tags)`);
}

export const vectorIndexName = (table: string): string => `${table}_embedding_hnsw`;

/** HNSW, cosine distance. Concurrently: writes go on while it builds (not inside a transaction). */
export function vectorIndexSql(s: string, table: string, vector: string, options: { concurrently?: boolean } = {}): string {
  const opclass = vector.replace(/\.vector$/, '.vector_cosine_ops');
  return `CREATE INDEX ${options.concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${ident(vectorIndexName(table))} ON ${s}.${ident(table)}
    USING hnsw (embedding ${opclass})`;
}

/**
 * The embedding column gets the store's dimensions once they are known (on an empty table):
 * a writer with a stale idea of them fails, and searches and the index need no cast. Vectors up
 * to 1800 dimensions are stored inline (PLAIN) rather than TOASTed: an exact scan then reads
 * one page per row or less instead of three (measured: 30k buffer reads for 10k 512-d rows).
 */
export function typedEmbeddingSql(s: string, table: string, vector: string, dimensions: number): string {
  const storage = dimensions <= 1800 ? ', ALTER COLUMN embedding SET STORAGE PLAIN' : '';
  return `ALTER TABLE ${s}.${ident(table)} ALTER COLUMN embedding TYPE ${vector}(${dimensions})${storage}`;
}

/**
 * The text that is indexed (or searched): Chinese, Japanese and Korean runs, which have no spaces
 * between words, become overlapping character bigrams (plus single characters when indexing, so a
 * one-character query still matches); everything else is left to the text-search parser.
 */
export function ftsTextFunctionSql(s: string, name = 'fts_text'): string {
  const cjk = '[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af\\uff66-\\uff9f]';
  return `CREATE FUNCTION ${s}.${ident(name)}(input text, for_query boolean) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
    DECLARE run text; n integer; grams text[] := '{}';
    BEGIN
      IF input !~ '${cjk}' THEN RETURN input; END IF;
      FOR run IN SELECT m[1] FROM regexp_matches(input, '${cjk}+', 'g') AS m LOOP
        n := length(run);
        FOR i IN 1..n LOOP
          IF NOT for_query OR n = 1 THEN grams := grams || substr(run, i, 1); END IF;
          IF i < n THEN grams := grams || substr(run, i, 2); END IF;
        END LOOP;
      END LOOP;
      RETURN regexp_replace(input, '${cjk}+', ' ', 'g') || ' ' || array_to_string(grams, ' ');
    END $fn$`;
}

/** Where a component keeps its BM25 statistics: lexeme -> df, the row count and total length, and the trigger function. */
export interface TermTables {
  terms: string;
  stats: string;
  fn: string;
}
export const MEMORY_TERM_TABLES: TermTables = { terms: 'memory_terms', stats: 'memory_doc_stats', fn: 'memory_terms_sync' };

/**
 * Keeps memory_terms/memory_doc_stats (or another component's TermTables) exact. Lexemes are upserted in sorted order, so concurrent
 * writers lock them in the same order and cannot deadlock; an update that leaves the text alone
 * nets to no change.
 */
export function termsTriggerFunctionSql(s: string, names: TermTables = MEMORY_TERM_TABLES): string {
  const stats = `${s}.${ident(names.stats)}`;
  const upsert = (rows: string) => `INSERT INTO ${s}.${ident(names.terms)} AS t (lexeme, df)
        SELECT lexeme, sum(d) FROM (${rows}) x GROUP BY lexeme HAVING sum(d) <> 0 ORDER BY lexeme
        ON CONFLICT (lexeme) DO UPDATE SET df = t.df + excluded.df`;
  const plus = `SELECT u.lexeme, 1 AS d FROM new_rows n, unnest(n.tsv) u`;
  const minus = `SELECT u.lexeme, -1 AS d FROM old_rows o, unnest(o.tsv) u`;
  return `CREATE FUNCTION ${s}.${ident(names.fn)}() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${upsert(plus)};
        UPDATE ${stats} SET docs = docs + (SELECT count(*) FROM new_rows),
          total_len = total_len + (SELECT coalesce(sum(doc_len), 0) FROM new_rows);
      ELSIF TG_OP = 'DELETE' THEN
        ${upsert(minus)};
        UPDATE ${stats} SET docs = docs - (SELECT count(*) FROM old_rows),
          total_len = total_len - (SELECT coalesce(sum(doc_len), 0) FROM old_rows);
      ELSE
        ${upsert(`${plus} UNION ALL ${minus}`)};
        UPDATE ${stats} SET
          total_len = total_len + (SELECT coalesce(sum(doc_len), 0) FROM new_rows) - (SELECT coalesce(sum(doc_len), 0) FROM old_rows)
          WHERE (SELECT coalesce(sum(doc_len), 0) FROM new_rows) <> (SELECT coalesce(sum(doc_len), 0) FROM old_rows);
      END IF;
      RETURN NULL;
    END $fn$`;
}

export async function createTermsTriggers(
  client: pg.ClientBase,
  s: string,
  table: string,
  names: TermTables = MEMORY_TERM_TABLES,
): Promise<void> {
  const t = `${s}.${ident(table)}`;
  const fn = `${s}.${ident(names.fn)}()`;
  await client.query(
    `CREATE TRIGGER ${ident(`${table}_terms_ins`)} AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
  await client.query(
    `CREATE TRIGGER ${ident(`${table}_terms_del`)} AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
  await client.query(
    `CREATE TRIGGER ${ident(`${table}_terms_upd`)} AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
  );
}

/** Recomputes the term statistics from `table` (after a rebuild, or to repair). */
export async function recomputeTermStats(
  client: pg.ClientBase,
  s: string,
  table: string,
  names: TermTables = MEMORY_TERM_TABLES,
): Promise<void> {
  const t = `${s}.${ident(table)}`;
  await client.query(`DELETE FROM ${s}.${ident(names.terms)}`);
  await client.query(
    `INSERT INTO ${s}.${ident(names.terms)} (lexeme, df) SELECT u.lexeme, count(*) FROM ${t} m, unnest(m.tsv) u GROUP BY u.lexeme`,
  );
  await client.query(`UPDATE ${s}.${ident(names.stats)} SET docs = x.docs, total_len = x.total_len
    FROM (SELECT count(*) AS docs, coalesce(sum(doc_len), 0) AS total_len FROM ${t}) x`);
}
