/**
 * Pending flushes as files (the file journal store): `<home>/journal/pending/*.json`, one per
 * flush whose generation finally failed. A file is claimed with a lock so two flushing processes
 * never write one entry twice. The next flush (of any session) retries them first, oldest first.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StrataError } from '../../errors/index.js';
import type { JournalPendingFlush, JournalPendingOutcome, JournalPendingRetry } from '../../spec/journal-store.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import type { JournalPaths } from './options.js';
import { redactDeep } from '../write/redact-record.js';

export type PendingFlush = JournalPendingFlush;
export type PendingOutcome = JournalPendingOutcome;

/** Pending flushes retried per flush, so one flush stays bounded when the LLM was down for long. */
export const MAX_PENDING_PER_FLUSH = 5;

/** A file-name-safe part; also used to name pending rows in other stores. */
export function pendingName(pending: PendingFlush): string {
  const stamp = pending.flushedAt.replace(/[-:.]/g, '');
  const safe = pending.sessionId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'session';
  return `${stamp}-${safe}-${randomBytes(3).toString('hex')}`;
}

export async function savePending(paths: JournalPaths, pending: PendingFlush): Promise<string> {
  const path = join(paths.pendingDir, `${pendingName(pending)}.json`);
  await writeFileAtomic({ path, data: JSON.stringify(redactDeep(pending), null, 2) + '\n' });
  return path;
}

export async function listPending(paths: JournalPaths): Promise<string[]> {
  try {
    return (await readdir(paths.pendingDir))
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort()
      .map((n) => join(paths.pendingDir, n));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Runs `fn` on the pending file `path` while holding its lock. When `fn` returns an entry it is
 * appended (by `append`) and the file removed; otherwise the failure is recorded in the file.
 */
export async function withPendingFile(
  path: string,
  fn: JournalPendingRetry,
  append: (entry: { day: string; text: string }) => Promise<void>,
): Promise<PendingOutcome> {
  try {
    return await withFileLock({ path: `${path}.claim`, timeoutMs: 200 }, async () => {
      let pending: PendingFlush;
      try {
        pending = JSON.parse(await readFile(path, 'utf8')) as PendingFlush;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone'; // another process finished it
        throw error;
      }
      const result = await fn(pending);
      if (result.ok) {
        await append(result);
        await unlink(path);
        return 'done';
      }
      await writeFileAtomic({
        path,
        data: JSON.stringify(redactDeep({ ...pending, failures: pending.failures + 1, lastError: result.error }), null, 2) + '\n',
      });
      return 'failed';
    });
  } catch (error) {
    if (StrataError.isInstance(error) && error.code === 'STORE_LOCKED') return 'busy';
    throw error;
  } finally {
    await unlink(`${path}.claim`).catch(() => undefined);
  }
}
