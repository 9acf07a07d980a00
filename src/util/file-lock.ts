import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import { StorageError } from '../errors/index.js';
import { ownerRecordingFs, takeOverFromDeadHolder } from './lock-owner.js';

/**
 * Cross-process mutual exclusion on a lock file. A holder refreshes the lock's mtime while alive
 * and records its pid; a waiter takes over at once from a holder on this machine that died, and
 * any other abandoned lock (no record, another machine) goes stale after `staleMs`.
 */
export interface FileLockOptions {
  /** The file to lock; created if missing. */
  path: string;
  /** How long to keep trying before failing with STORE_LOCKED. Default 30 s. */
  timeoutMs?: number;
  /** A lock not refreshed for this long is considered abandoned. Default 10 s. */
  staleMs?: number;
}

export async function withFileLock<T>(options: FileLockOptions, fn: () => Promise<T>): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const staleMs = Math.max(options.staleMs ?? 10_000, 2_000);
  await mkdir(dirname(options.path), { recursive: true });
  await writeFile(options.path, '', { flag: 'a' });
  const deadline = Date.now() + timeoutMs;
  let release: (() => Promise<void>) | undefined;
  let delay = 5;
  const fs = ownerRecordingFs(options.path);
  while (!release) {
    try {
      release = await lockfile.lock(options.path, { stale: staleMs, update: Math.floor(staleMs / 2), realpath: false, fs });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new StorageError({ message: `Cannot lock ${options.path}: ${(error as Error).message}`, cause: error });
      }
      if (await takeOverFromDeadHolder(options.path, staleMs)) continue;
      if (Date.now() >= deadline) {
        throw new StorageError({
          code: 'STORE_LOCKED',
          isRetryable: true,
          message: `Timed out after ${timeoutMs} ms waiting for the lock ${options.path}; another Strata process is writing. Retry, or remove ${options.path}.lock if no Strata process is running.`,
          cause: error,
        });
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 100);
    }
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
