import type pg from 'pg';
import { StorageError } from '../../errors/index.js';
import { wrap } from './errors.js';
import { checkout } from './pool.js';

const POLL_MS = 50;

/**
 * Runs `fn` holding a session advisory lock named `name` on one connection of `pool`, given to
 * `fn`. The lock ends with its holder (a killed process's connection closes, so nothing goes
 * stale); writing through the given connection means a holder that lost it (and so the lock)
 * cannot write after another holder took over. Waits up to `timeoutMs` (polling), then fails
 * with STORE_LOCKED (retryable) and `busy` as the message.
 */
export async function withAdvisoryLock<T>(
  options: { pool: pg.Pool; name: string; timeoutMs: number; busy: string; abortSignal?: AbortSignal },
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const held = await wrap('lock', () => checkout(options.pool));
  let locked = false;
  try {
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      options.abortSignal?.throwIfAborted();
      const { rows } = await wrap('lock', () =>
        held.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [options.name]),
      );
      if (rows[0]?.ok) break;
      if (Date.now() >= deadline) throw new StorageError({ code: 'STORE_LOCKED', isRetryable: true, message: options.busy });
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    locked = true;
    return await fn(held.client);
  } finally {
    if (locked) await held.client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [options.name]).catch(() => undefined);
    held.release();
  }
}
