import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import { wrap } from './errors.js';
import { checkout } from './pool.js';

/** Per pool and key, the tail of the in-process queue of write-lock holders. */
const queues = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/**
 * The store's cross-process write lock: a session advisory lock held on a connection of its own,
 * released by the server if the process dies (no stale-lock recovery needed). Callers in one
 * process queue in memory first, so only one pooled connection ever waits on the server: many
 * concurrent writers cannot exhaust the pool and starve the holder. Both waits share the timeout.
 */
export async function withAdvisoryLock<T>(
  options: { pool: pg.Pool; key: string; timeoutMs: number; what: string },
  fn: () => Promise<T>,
): Promise<T> {
  const { pool, key } = options;
  const deadline = Date.now() + options.timeoutMs;
  const byKey = queues.get(pool) ?? new Map<string, Promise<void>>();
  queues.set(pool, byKey);
  const before = byKey.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  byKey.set(key, tail);
  try {
    await waitUntil(before, deadline, options.what);
    return await holdOnServer(options, deadline, fn);
  } finally {
    done();
    if (byKey.get(key) === tail) byKey.delete(key);
  }
}

async function holdOnServer<T>(options: { pool: pg.Pool; key: string; what: string }, deadline: number, fn: () => Promise<T>): Promise<T> {
  const { client, release } = await wrap('lock', () => checkout(options.pool));
  try {
    await wrap('lock', async () => {
      await client.query(`SET lock_timeout = ${Math.max(1, deadline - Date.now())}`);
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [options.key]);
    }).catch((error: unknown) => {
      throw (error as { code?: string }).code === 'STORE_LOCKED' ? lockedError(options.what, error) : error;
    });
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [options.key]).catch(() => undefined);
    }
  } finally {
    await client.query('RESET lock_timeout').catch(() => undefined);
    release();
  }
}

async function waitUntil(turn: Promise<void>, deadline: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(lockedError(what)), Math.max(0, deadline - Date.now()));
  });
  try {
    await Promise.race([turn, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function lockedError(what: string, cause?: unknown): StorageError {
  return new StorageError({
    code: 'STORE_LOCKED',
    isRetryable: true,
    cause,
    message: `Timed out waiting for the write lock of ${what}; another Strata writer holds it. Retry later.`,
  });
}
