import type pg from 'pg';
import type {
  DistillBudgetWindow,
  DistillCursorState,
  DistillLockOptions,
  DistillProgressCapabilities,
  DistillProgressV1,
} from '../../spec/distill-progress.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import type { Migration } from '../store-postgres/migrate.js';
import { withAdvisoryLock } from '../store-postgres/advisory-lock.js';
import { ident } from '../store-postgres/sql.js';

/**
 * Distill progress in PostgreSQL (migration component `distill`): one row per L0 log key with the
 * cursor and the budget window as jsonb. The run lock is a session advisory lock held on one
 * connection for the whole run: it ends with its holder (a killed process's connection closes),
 * so nothing goes stale, and the holder writes the cursor over that same connection, so a holder
 * that lost its connection (and so its lock) cannot write over a newer run's progress.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'distill progress',
    async up(client, schema) {
      await client.query(`CREATE TABLE ${ident(schema)}.distill_progress (
        log_key text PRIMARY KEY, cursor jsonb, budget jsonb, updated_at timestamptz NOT NULL DEFAULT now())`);
    },
  },
];

export interface PostgresDistillProgressOptions extends PostgresComponentOptions {
  /** The L0 log this progress belongs to (its positions are that log's). */
  logKey: string;
}

class PostgresDistillProgress extends PostgresComponent implements DistillProgressV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: DistillProgressCapabilities = { shared: true, lockEndsWithHolder: true };
  private readonly logKey: string;
  /** The connection holding the lock while `exclusive` runs: writes go through it. */
  private holder: pg.PoolClient | undefined;

  constructor(options: PostgresDistillProgressOptions) {
    super(options, {
      component: 'distill',
      migrations: MIGRATIONS,
      what: 'The PostgreSQL distill progress',
      urlSetting: 'store.postgres.urlEnv',
    });
    this.logKey = options.logKey;
  }

  async exclusive<T>(options: DistillLockOptions, fn: () => Promise<T>): Promise<T> {
    await this.ready();
    return withAdvisoryLock(
      {
        pool: this.pool,
        name: `strata:${this.schema}:distill:${this.logKey}`,
        timeoutMs: options.timeoutMs ?? 0,
        abortSignal: options.abortSignal,
        busy: `Another Strata process is distilling the L0 log "${this.logKey}" (PostgreSQL schema "${this.schema}"); it ends when that run does. Retry later.`,
      },
      async (client) => {
        this.holder = client;
        try {
          return await fn();
        } finally {
          this.holder = undefined;
        }
      },
    );
  }

  async readCursor(): Promise<DistillCursorState | undefined> {
    return (await this.readRow()).cursor ?? undefined;
  }

  async writeCursor(options: { state: DistillCursorState }): Promise<void> {
    await this.write('cursor', options.state);
  }

  async readBudget(): Promise<DistillBudgetWindow | undefined> {
    return (await this.readRow()).budget ?? undefined;
  }

  async writeBudget(options: { window: DistillBudgetWindow }): Promise<void> {
    await this.write('budget', options.window);
  }

  private async readRow(): Promise<{ cursor: DistillCursorState | null; budget: DistillBudgetWindow | null }> {
    const t = `${await this.ready()}.distill_progress`;
    const { rows } = await wrap('distill progress read', () =>
      (this.holder ?? this.pool).query<{ cursor: DistillCursorState | null; budget: DistillBudgetWindow | null }>(
        `SELECT cursor, budget FROM ${t} WHERE log_key = $1`,
        [this.logKey],
      ),
    );
    return rows[0] ?? { cursor: null, budget: null };
  }

  private async write(column: 'cursor' | 'budget', value: object): Promise<void> {
    const t = `${await this.ready()}.distill_progress`;
    await wrap('distill progress write', () =>
      (this.holder ?? this.pool).query(
        `INSERT INTO ${t} (log_key, ${column}) VALUES ($1, $2::jsonb)
         ON CONFLICT (log_key) DO UPDATE SET ${column} = EXCLUDED.${column}, updated_at = now()`,
        [this.logKey, JSON.stringify(value)],
      ),
    );
  }
}

export function createPostgresDistillProgress(options: PostgresDistillProgressOptions): DistillProgressV1 & { readonly schema: string } {
  return new PostgresDistillProgress(options);
}
