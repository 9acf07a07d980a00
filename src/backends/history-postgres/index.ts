import type pg from 'pg';
import type { HistoryEntry, HistoryLogCapabilities, HistoryLogV1 } from '../../spec/history-log.js';
import { wrap } from '../store-postgres/errors.js';
import { migrate, type Migration } from '../store-postgres/migrate.js';
import { inTransaction, poolFor, type PoolLease } from '../store-postgres/pool.js';
import { chunks, ident } from '../store-postgres/sql.js';

/**
 * `history_entries`, in the store's schema (migration component `history`): one row per entry,
 * the entry itself as jsonb, `seq` for append order, and `ids` (the subject and every related
 * memory) under a GIN index for `historyOf`. `at` sorts bytewise, as ISO times do.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'history entries',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.history_entries (
        seq bigint GENERATED ALWAYS AS IDENTITY, entry_id text PRIMARY KEY, at text COLLATE "C" NOT NULL,
        ids text[] NOT NULL, entry jsonb NOT NULL)`);
      await client.query(`CREATE UNIQUE INDEX history_entries_seq ON ${s}.history_entries (seq)`);
      await client.query(`CREATE INDEX history_entries_ids ON ${s}.history_entries USING gin (ids)`);
    },
  },
];

export interface PostgresHistoryLogOptions {
  url?: string;
  /** Or a pool the caller owns (not closed by close()). */
  pool?: pg.Pool;
  schema?: string;
  poolSize?: number;
}

const PAGE = 1000;

class PostgresHistoryLog implements HistoryLogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: HistoryLogCapabilities = { concurrentWriters: true, indexedLookup: true };
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly lease: PoolLease | null;
  private opened: Promise<string> | null = null;

  constructor(options: PostgresHistoryLogOptions) {
    this.schema = options.schema ?? 'strata';
    ident(this.schema);
    ({ pool: this.pool, lease: this.lease } = poolFor({
      ...options,
      what: 'The PostgreSQL history log',
      urlSetting: 'store.postgres.urlEnv',
    }));
  }

  /** Migrations once per object; resolves the quoted table name. */
  private ready(): Promise<string> {
    if (!this.opened) {
      this.opened = wrap('open', async () => {
        await migrate({ pool: this.pool, schema: this.schema, component: 'history', migrations: MIGRATIONS });
        return `${ident(this.schema)}.history_entries`;
      });
      this.opened.catch(() => (this.opened = null));
    }
    return this.opened;
  }

  async append(options: { entries: HistoryEntry[] }): Promise<void> {
    if (options.entries.length === 0) return;
    const t = await this.ready();
    const rows = options.entries.map((e) => ({
      entry_id: e.entryId,
      at: e.at,
      ids: [e.id, ...(e.related ?? []).map((r) => r.id)],
      entry: e,
    }));
    // One transaction: all or none. The lock serialises appends, so `seq` follows commit order (a
    // reader paging by seq never skips a later-committed lower one) and one call's entries stay
    // together. An entry id seen again (a retried append) is kept once.
    await wrap('history append', () =>
      inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${this.schema}:history`]);
        for (const part of chunks(rows, PAGE)) {
          await client.query(
            `INSERT INTO ${t} (entry_id, at, ids, entry)
          SELECT x.j->>'entry_id', x.j->>'at', ARRAY(SELECT jsonb_array_elements_text(x.j->'ids')), x.j->'entry'
          FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(j, n) ORDER BY x.n
          ON CONFLICT (entry_id) DO NOTHING`,
            [JSON.stringify(part)],
          );
        }
      }),
    );
  }

  async historyOf(options: { id: string }): Promise<HistoryEntry[]> {
    const t = await this.ready();
    const { rows } = await wrap('history read', () =>
      this.pool.query<{ entry: HistoryEntry }>(`SELECT entry FROM ${t} WHERE ids @> ARRAY[$1::text] ORDER BY at, entry_id COLLATE "C"`, [
        options.id,
      ]),
    );
    return rows.map((r) => r.entry);
  }

  /** Pages by `seq`, so a long history streams without one huge result. */
  async *entries(): AsyncGenerator<HistoryEntry> {
    const t = await this.ready();
    let after = 0;
    for (;;) {
      const { rows } = await wrap('history read', () =>
        this.pool.query<{ seq: number; entry: HistoryEntry }>(`SELECT seq, entry FROM ${t} WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`, [
          after,
        ]),
      );
      for (const r of rows) yield r.entry;
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.seq;
    }
  }

  async close(): Promise<void> {
    await this.lease?.release();
  }
}

export function createPostgresHistoryLog(options: PostgresHistoryLogOptions): HistoryLogV1 & { readonly schema: string } {
  return new PostgresHistoryLog(options);
}
