import type pg from 'pg';
import { wrap } from './errors.js';
import { migrate, type Migration } from './migrate.js';
import { poolFor, type PoolLease } from './pool.js';
import { ident } from './sql.js';

export interface PostgresComponentOptions {
  url?: string;
  /** Or a pool the caller owns (not closed by close()). */
  pool?: pg.Pool;
  schema?: string;
  poolSize?: number;
}

/**
 * What every Postgres-backed component of a shared deployment shares: a pool (given, or a lease
 * on the process's pool for the URL), its schema, and its migrations run once per object on first
 * use (retried after a failure). `ready()` resolves the quoted schema name.
 */
export abstract class PostgresComponent {
  readonly schema: string;
  protected readonly pool: pg.Pool;
  private readonly lease: PoolLease | null;
  private opened: Promise<string> | null = null;

  protected constructor(
    options: PostgresComponentOptions,
    private readonly migration: { component: string; migrations: readonly Migration[]; what: string; urlSetting: string },
  ) {
    this.schema = options.schema ?? 'strata';
    ident(this.schema);
    ({ pool: this.pool, lease: this.lease } = poolFor({ ...options, what: migration.what, urlSetting: migration.urlSetting }));
  }

  protected ready(): Promise<string> {
    if (!this.opened) {
      this.opened = wrap('open', async () => {
        await migrate({ pool: this.pool, schema: this.schema, component: this.migration.component, migrations: this.migration.migrations });
        return ident(this.schema);
      });
      this.opened.catch(() => (this.opened = null));
    }
    return this.opened;
  }

  async close(): Promise<void> {
    await this.lease?.release();
  }
}
