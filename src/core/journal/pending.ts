/**
 * Flushes whose generation finally failed keep their gathered input under
 * `<home>/journal/pending/*.json`; the next flush (of any session) retries them first, oldest
 * first. A file is claimed with a lock so two flushing processes never write one entry twice.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { StrataError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import type { JournalPaths } from './options.js';
import { redactDeep } from '../write/redact-record.js';

export interface PendingFlush {
  version: 1;
  sessionId: string;
  agentId: string | null;
  /** ISO time of the original flush: the entry goes to that day, under that time. */
  flushedAt: string;
  source: 'transcript' | 'l0';
  /** Messages the rendered conversation covers. */
  messages: number;
  /** The prompt, exactly as it was to be sent. */
  prompt: string;
  failures: number;
  lastError: string;
}

/** Pending files retried per flush, so one flush stays bounded when the LLM was down for long. */
export const MAX_PENDING_PER_FLUSH = 5;

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'session';
}

export async function savePending(paths: JournalPaths, pending: PendingFlush): Promise<string> {
  const stamp = pending.flushedAt.replace(/[-:.]/g, '');
  const path = join(paths.pendingDir, `${stamp}-${safe(pending.sessionId)}-${randomBytes(3).toString('hex')}.json`);
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

export type PendingOutcome = 'done' | 'failed' | 'busy' | 'gone';

/**
 * Runs `fn` on a pending file while holding its lock. `fn` returns true when the entry is written
 * (the file is removed) or false to keep it with the failure recorded.
 */
export async function withPending(
  path: string,
  fn: (pending: PendingFlush) => Promise<{ ok: true } | { ok: false; error: string }>,
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
