import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import { inTransaction } from './pool.js';
import { ident } from './sql.js';

/**
 * Versioned schema migrations, per component (`memories` now; the conversation index, L0 log and
 * shared state add theirs) in one table `<schema>.strata_migrations`. All of a component's pending
 * steps run in one transaction under an advisory lock, so processes starting together apply each
 * step once, and a failed step leaves the schema as it was.
 */
export interface Migration {
  version: number;
  name: string;
  up(client: pg.PoolClient, schema: string): Promise<void>;
}

export async function migrate(options: {
  pool: pg.Pool;
  schema: string;
  component: string;
  migrations: readonly Migration[];
}): Promise<number[]> {
  const { schema, component, migrations } = options;
  const s = ident(schema);
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  return inTransaction(options.pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${schema}:migrate`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.strata_migrations (
      component text NOT NULL, version integer NOT NULL, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (component, version))`);
    const done = await client.query<{ version: number }>(`SELECT version FROM ${s}.strata_migrations WHERE component = $1`, [component]);
    const applied = new Set(done.rows.map((r) => r.version));
    const newest = Math.max(0, ...applied);
    if (newest > latest) {
      throw new StorageError({
        code: 'STORAGE',
        message: `Schema "${schema}" holds ${component} at version ${newest}, newer than this Strata knows (${latest}); upgrade Strata on this machine.`,
      });
    }
    const ran: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(m.version)) continue;
      await m.up(client, schema);
      await client.query(`INSERT INTO ${s}.strata_migrations (component, version, name) VALUES ($1, $2, $3)`, [
        component,
        m.version,
        m.name,
      ]);
      ran.push(m.version);
    }
    return ran;
  });
}
