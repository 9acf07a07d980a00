import pg from 'pg';
import { InvalidArgumentError } from '../../errors/index.js';

/**
 * One connection pool per database URL per process, shared by every Strata component on that
 * database (memory store now; conversation index, L0 log and shared state later), counted by
 * reference so the last user closes it.
 */
export interface PoolOptions {
  url: string;
  /** Connections in the pool (first acquirer decides). Default 10. */
  max?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
}

export interface PoolLease {
  pool: pg.Pool;
  release(): Promise<void>;
}

const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
const INT8 = 20;

/**
 * Times come back as ISO-8601 UTC strings (what the spec's records hold) whatever the session
 * time zone; counts (bigint) as numbers.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ || oid === TIMESTAMP) return (value: string) => isoOf(value);
    if (oid === INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export function isoOf(value: string): string {
  // '2025-06-01 00:00:00.123+00' (or +05:30, or no zone for `timestamp`) -> Date -> ISO.
  let text = value.replace(' ', 'T');
  if (/[+-]\d\d$/.test(text)) text += ':00';
  else if (!/[+-]\d\d:\d\d$|Z$/.test(text)) text += 'Z';
  return new Date(text).toISOString();
}

const pools = new Map<string, { pool: pg.Pool; refs: number; live: Set<pg.PoolClient> }>();

export function acquirePool(options: PoolOptions): PoolLease {
  let entry = pools.get(options.url);
  if (!entry) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? 10,
      application_name: options.applicationName ?? 'strata',
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 15_000,
      types,
    });
    // An idle client losing its connection (server restart) must not crash the process; the
    // pool drops it and the next query opens a new one.
    pool.on('error', () => undefined);
    const live = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      live.add(client);
      client.once('end', () => live.delete(client));
    });
    entry = { pool, refs: 0, live };
    pools.set(options.url, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    pool: held.pool,
    async release() {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0) {
        pools.delete(options.url);
        // pool.end() resolves before the sockets close; a closed store leaves no session behind
        // (one still closing would be killed mid-goodbye by a DROP DATABASE ... FORCE, say).
        const closing = [...held.live].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
        await held.pool.end();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.all(closing), new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000)))]);
        clearTimeout(timer);
      }
    },
  };
}

export interface Checkout {
  client: pg.PoolClient;
  /** Returns the client, or discards it when its connection broke. */
  release(): void;
}

/**
 * A client for several statements. A connection lost while it is checked out (server restart,
 * pg_terminate_backend) is reported to the statement in flight; without this listener the
 * client's 'error' event would crash the process.
 */
export async function checkout(pool: pg.Pool): Promise<Checkout> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  return {
    client,
    release() {
      client.off('error', onError);
      client.release(broken);
    },
  };
}

/** Runs `fn` in a transaction on one client; rolls back on any error. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const { client, release } = await checkout(pool);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}

/**
 * The pool a Postgres backend runs on: the one it was given (not closed by it), or a lease on the
 * shared pool for `url` (released by the backend's close). `what` names the backend in the error.
 */
export function poolFor(options: { pool?: pg.Pool; url?: string; poolSize?: number; what: string; urlSetting: string }): {
  pool: pg.Pool;
  lease: PoolLease | null;
} {
  if (options.pool) return { pool: options.pool, lease: null };
  if (!options.url) {
    throw new InvalidArgumentError({
      argument: 'url',
      message: `${options.what} needs a connection URL (${options.urlSetting} names the variable holding it).`,
    });
  }
  const lease = acquirePool({ url: options.url, max: options.poolSize });
  return { pool: lease.pool, lease };
}
