import {
  createTermsTriggers,
  ensureVectorExtension,
  ftsTextFunctionSql,
  termsTriggerFunctionSql,
  type TermTables,
} from '../store-postgres/ddl.js';
import type { Migration } from '../store-postgres/migrate.js';
import { ident } from '../store-postgres/sql.js';

/**
 * The conversation index's tables, in the same schema as the memory store (migration component
 * `conversations`, so each component versions its own tables):
 * - `conversation_turns`: one row per indexed L0 record (columns in rows.ts), the embedding as an
 *   untyped pgvector column typed at initMeta (an HNSW index follows), `tsv`/`doc_len` for BM25.
 *   `position` sorts bytewise (COLLATE "C"), as the L0 log compares positions.
 * - `conversation_terms` / `conversation_doc_stats`: BM25 statistics kept exact by triggers.
 * - `conversation_meta`: embedder identity; `conversation_state`: watermark and text-search setting.
 */
export const TURNS = 'conversation_turns';
export const TERM_TABLES: TermTables = { terms: 'conversation_terms', stats: 'conversation_doc_stats', fn: 'conversation_terms_sync' };
export const FTS_TEXT = 'conversation_fts_text';
export const HNSW_INDEX = `${TURNS}_embedding_hnsw`;

export const CONVERSATION_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversation turns, term statistics, meta, state',
    async up(client, schema) {
      const s = ident(schema);
      const vector = await ensureVectorExtension(client);
      await client.query(`CREATE TABLE ${s}.conversation_meta (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), embedder_id text NOT NULL,
        dimensions integer NOT NULL, schema_version integer NOT NULL, created_at timestamptz NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.conversation_state (key text PRIMARY KEY, value text NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.${ident(TURNS)} (
        id text PRIMARY KEY, position text COLLATE "C" NOT NULL, session_key text NOT NULL, session_id text NOT NULL,
        agent_id text NOT NULL, host text NOT NULL, entry_id text NOT NULL, role text NOT NULL, content text NOT NULL,
        timestamp_ms double precision NOT NULL, recorded_at text NOT NULL, text text NOT NULL, embedding ${vector},
        tsv tsvector NOT NULL, doc_len integer NOT NULL)`);
      const t = `${s}.${ident(TURNS)}`;
      await client.query(`CREATE INDEX ${ident(`${TURNS}_session_position`)} ON ${t} (host, agent_id, session_id, position)`);
      await client.query(`CREATE INDEX ${ident(`${TURNS}_agent`)} ON ${t} (agent_id)`);
      await client.query(`CREATE INDEX ${ident(`${TURNS}_session_key`)} ON ${t} (session_key)`);
      await client.query(`CREATE INDEX ${ident(`${TURNS}_unembedded`)} ON ${t} (id) WHERE embedding IS NULL`);
      await client.query(`CREATE INDEX ${ident(`${TURNS}_tsv`)} ON ${t} USING gin (tsv)`);
      await client.query(`CREATE TABLE ${s}.${ident(TERM_TABLES.terms)} (lexeme text PRIMARY KEY, df bigint NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.${ident(TERM_TABLES.stats)} (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), docs bigint NOT NULL, total_len bigint NOT NULL)`);
      await client.query(`INSERT INTO ${s}.${ident(TERM_TABLES.stats)} (docs, total_len) VALUES (0, 0)`);
      await client.query(ftsTextFunctionSql(s, FTS_TEXT));
      await client.query(termsTriggerFunctionSql(s, TERM_TABLES));
      await createTermsTriggers(client, s, TURNS, TERM_TABLES);
    },
  },
  {
    version: 2,
    name: 'a separate embedding text per turn (conversation index spec v2)',
    async up(client, schema) {
      // Rows of the older layout carry an empty embedding text; the engine rebuilds an index of an older schema version from L0.
      await client.query(`ALTER TABLE ${ident(schema)}.${ident(TURNS)} ADD COLUMN embedding_text text NOT NULL DEFAULT ''`);
    },
  },
];
