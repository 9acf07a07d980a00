/**
 * Hook failures, where a person can find them: Claude Code shows a hook's stderr only in its
 * debug log, so every failure (bad config.json, a store error, a timeout, bad input) is also
 * appended to `<home>/logs/hooks.jsonl`, read by `strata doctor` and by SessionStart. Here, not in
 * a host, because the doctor command (src/commands) may not import hosts. Node built-ins only: the
 * hook entry imports this on every call.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFileTail } from '../util/read-tail.js';

export interface HookLogEntry {
  /** ISO time. */
  ts: string;
  event: string;
  sessionId?: string;
  code: string;
  message: string;
  /** Where it failed: the hook process, the resident process, or the in-process fallback. */
  where: 'hook' | 'resident' | 'in-process';
}

/** The tail read for recent entries: plenty for days of failures, cheap to read. */
const TAIL_BYTES = 256 * 1024;

export function hookLogPath(home: string): string {
  return join(home, 'logs', 'hooks.jsonl');
}

/** Never throws: a hook that cannot log must still not fail the host. */
export function appendHookError(home: string, entry: Omit<HookLogEntry, 'ts'> & { ts?: string }): void {
  try {
    mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 });
    const line = JSON.stringify({ ts: entry.ts ?? new Date().toISOString(), ...entry, message: entry.message.slice(0, 2000) });
    appendFileSync(hookLogPath(home), line + '\n', { mode: 0o600 });
  } catch {
    // nothing left to tell: stderr already has the message
  }
}

/** Entries newer than `since` (ISO), oldest first. */
export async function recentHookErrors(options: { home: string; since: string }): Promise<HookLogEntry[]> {
  const text = await readFileTail(hookLogPath(options.home), TAIL_BYTES);
  if (text === undefined) return [];
  const out: HookLogEntry[] = [];
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as HookLogEntry;
      if (typeof entry.ts === 'string' && entry.ts > options.since) out.push(entry);
    } catch {
      // the first line of a tail is usually cut
    }
  }
  return out;
}

/** One line for a person: `[CODE] message (event, time)`. */
export function describeHookError(entry: HookLogEntry): string {
  return `[${entry.code}] ${entry.message} (${entry.event}, ${entry.ts.slice(0, 19).replace('T', ' ')})`;
}
