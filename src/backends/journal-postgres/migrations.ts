import type { Migration } from '../store-postgres/migrate.js';
import { ident } from '../store-postgres/sql.js';

/**
 * Tables of the journal (migration component `journal`). JSON is kept as text: session ids and
 * prompts may hold characters jsonb refuses. Keys compare bytewise (COLLATE "C").
 */
export const JOURNAL_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'journal',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.journal_days (
        day text COLLATE "C" PRIMARY KEY, text text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE TABLE ${s}.journal_sessions (
        session_id text COLLATE "C" PRIMARY KEY, progress_json text NOT NULL, last_flush_at timestamptz NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.journal_pending (
        id text COLLATE "C" PRIMARY KEY, pending_json text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE TABLE ${s}.journal_compiled (
        day text COLLATE "C" PRIMARY KEY, hash text NOT NULL, length integer NOT NULL, compiled_at text NOT NULL)`);
      await client.query(`CREATE TABLE ${s}.journal_articles (
        slug text COLLATE "C" PRIMARY KEY, text text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE TABLE ${s}.journal_index (
        id boolean PRIMARY KEY DEFAULT true CHECK (id), text text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
    },
  },
];
