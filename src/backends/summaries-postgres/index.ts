import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import type { SummaryIndex, SummarySession, SummaryStoreCapabilities, SummaryStoreV1 } from '../../spec/summary-store.js';
import { withAdvisoryLock } from '../store-postgres/advisory-lock.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import type { Migration } from '../store-postgres/migrate.js';
import { inTransaction } from '../store-postgres/pool.js';
import { ident } from '../store-postgres/sql.js';

/**
 * Hierarchical summaries in PostgreSQL (migration component `summaries`): `summary_sessions` holds
 * each session's index (JSON text: session keys may hold characters jsonb refuses), and
 * `summary_texts` the text of each summary. A commit writes both in one transaction. The session
 * lock is a session advisory lock (it ends with its holder); the holder writes over the locked
 * connection, so a run that lost its connection cannot commit over another machine's run.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'summaries',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.summary_sessions (
        agent_id text COLLATE "C" NOT NULL, session_key text COLLATE "C" NOT NULL, index_json text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (agent_id, session_key))`);
      await client.query(`CREATE TABLE ${s}.summary_texts (
        agent_id text COLLATE "C" NOT NULL, session_key text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, text text NOT NULL,
        PRIMARY KEY (agent_id, session_key, id))`);
    },
  },
];

export type PostgresSummaryStoreOptions = PostgresComponentOptions;

/** PostgreSQL text cannot hold NUL; keys are compared without it (the index keeps the exact key as JSON). */
const key = (v: string) => v.replaceAll('\u0000', '');

class PostgresSummaryStore extends PostgresComponent implements SummaryStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: SummaryStoreCapabilities = { shared: true, lockEndsWithHolder: true };
  /** Connections holding a session lock, by session: that session's writes go through them. */
  private readonly holders = new Map<string, pg.PoolClient>();

  constructor(options: PostgresSummaryStoreOptions) {
    super(options, {
      component: 'summaries',
      migrations: MIGRATIONS,
      what: 'The PostgreSQL summary store',
      urlSetting: 'store.postgres.urlEnv',
    });
  }

  private sessionId(s: SummarySession): string {
    return `${key(s.agentId)}\u0001${key(s.sessionKey)}`;
  }

  async exclusive<T>(options: SummarySession & { timeoutMs?: number }, fn: () => Promise<T>): Promise<T> {
    await this.ready();
    const id = this.sessionId(options);
    return withAdvisoryLock(
      {
        pool: this.pool,
        name: `strata:${this.schema}:summaries:${id}`,
        timeoutMs: options.timeoutMs ?? 30_000,
        busy: `Another Strata process is summarising session ${options.sessionKey} of agent ${options.agentId}; the next run continues it.`,
      },
      async (client) => {
        this.holders.set(id, client);
        try {
          return await fn();
        } finally {
          this.holders.delete(id);
        }
      },
    );
  }

  async readIndex(options: SummarySession): Promise<SummaryIndex | undefined> {
    const s = await this.ready();
    const { rows } = await wrap('summaries read', () =>
      (this.holders.get(this.sessionId(options)) ?? this.pool).query<{ index_json: string }>(
        `SELECT index_json FROM ${s}.summary_sessions WHERE agent_id = $1 AND session_key = $2`,
        [key(options.agentId), key(options.sessionKey)],
      ),
    );
    if (!rows[0]) return undefined;
    const index = JSON.parse(rows[0].index_json) as SummaryIndex;
    if (index.version !== 1 || !Array.isArray(index.summaries) || index.sessionKey !== options.sessionKey) {
      throw new StorageError({
        message: `The stored summary index of session ${options.sessionKey} has an unknown format or belongs to another session; delete its row in ${this.schema}.summary_sessions to rebuild.`,
      });
    }
    return index;
  }

  async indexes(options: { agentId: string }): Promise<SummaryIndex[]> {
    const s = await this.ready();
    const { rows } = await wrap('summaries read', () =>
      this.pool.query<{ index_json: string }>(`SELECT index_json FROM ${s}.summary_sessions WHERE agent_id = $1 ORDER BY session_key`, [
        key(options.agentId),
      ]),
    );
    return rows
      .map((r) => JSON.parse(r.index_json) as SummaryIndex)
      .filter((i) => i.version === 1 && Array.isArray(i.summaries) && i.agentId === options.agentId);
  }

  async readText(options: SummarySession & { id: string }): Promise<string | undefined> {
    const s = await this.ready();
    const { rows } = await wrap('summaries read', () =>
      (this.holders.get(this.sessionId(options)) ?? this.pool).query<{ text: string }>(
        `SELECT text FROM ${s}.summary_texts WHERE agent_id = $1 AND session_key = $2 AND id = $3`,
        [key(options.agentId), key(options.sessionKey), options.id],
      ),
    );
    return rows[0]?.text.trim();
  }

  async commit(options: SummarySession & { id: string; text: string; index: SummaryIndex }): Promise<void> {
    const s = await this.ready();
    const params = [key(options.agentId), key(options.sessionKey)];
    const write = async (client: pg.PoolClient) => {
      await client.query(
        `INSERT INTO ${s}.summary_texts (agent_id, session_key, id, text) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, session_key, id) DO UPDATE SET text = EXCLUDED.text`,
        [...params, options.id, key(options.text)],
      );
      await client.query(
        `INSERT INTO ${s}.summary_sessions (agent_id, session_key, index_json) VALUES ($1, $2, $3)
         ON CONFLICT (agent_id, session_key) DO UPDATE SET index_json = EXCLUDED.index_json, updated_at = now()`,
        [...params, JSON.stringify(options.index)],
      );
    };
    const holder = this.holders.get(this.sessionId(options));
    await wrap('summaries commit', async () => {
      if (!holder) return inTransaction(this.pool, write);
      await holder.query('BEGIN');
      try {
        await write(holder);
        await holder.query('COMMIT');
      } catch (error) {
        await holder.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }
}

export function createPostgresSummaryStore(options: PostgresSummaryStoreOptions): SummaryStoreV1 & { readonly schema: string } {
  return new PostgresSummaryStore(options);
}
