/**
 * Journal settings, paths and the message shape the journal reads. The file journal store keeps
 * it in `<home>/journal/`: day logs `YYYY-MM-DD.md` (days in config `timezone`, like the L0 log), `pending/` for
 * flushes whose generation failed, `knowledge/` for compiled articles, and small state files.
 */
import { join } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationRole } from '../../spec/conversation.js';
import { dayInZone } from '../../util/time-zone.js';

export interface JournalOptions {
  /** A second flush of the same session within this window is skipped. */
  dedupeWindowMs: number;
  /** Generation attempts per flush before the input is kept under `pending/`. */
  attempts: number;
  /** A changed day log is compiled again only after this much time (unless forced). */
  compileMinIntervalMs: number;
  /** Budget for the conversation (flush) or day logs + articles (compile) sent to the LLM. */
  maxInputTokens: number;
  /** IANA zone whose calendar days name the day logs (config `timezone`, whose default is the system's); default UTC. */
  timeZone?: string;
}

export const DEFAULT_JOURNAL_OPTIONS: Readonly<JournalOptions> = Object.freeze({
  dedupeWindowMs: 60_000,
  attempts: 3,
  compileMinIntervalMs: 3_600_000,
  maxInputTokens: 12_000,
});

export function resolveJournalOptions(partial: Partial<JournalOptions> | undefined): JournalOptions {
  const merged = { ...DEFAULT_JOURNAL_OPTIONS, ...stripUndefined(partial ?? {}) };
  const check = (name: Exclude<keyof JournalOptions, 'timeZone'>, min: number, integer: boolean) => {
    const v = merged[name];
    if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
      throw new InvalidArgumentError({
        argument: `journal.${name}`,
        message: `journal.${name} must be ${integer ? 'an integer' : 'a number'} >= ${min} (got ${String(v)}).`,
      });
    }
  };
  check('dedupeWindowMs', 0, false);
  check('attempts', 1, true);
  check('compileMinIntervalMs', 0, false);
  check('maxInputTokens', 500, true);
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One cleaned conversation message as the journal reads it (from L0 or a host transcript). */
export interface JournalMessage {
  /** Unique within the session: progress is tracked by it. */
  id: string;
  role: ConversationRole;
  text: string;
  /** Epoch milliseconds. */
  timestamp: number;
}

export interface JournalPaths {
  dir: string;
  pendingDir: string;
  knowledgeDir: string;
  indexFile: string;
  flushState: string;
  compileState: string;
  stateLock: string;
  appendLock: string;
  compileLock: string;
  locksDir: string;
}

export function journalPaths(home: string): JournalPaths {
  const dir = join(home, 'journal');
  const knowledgeDir = join(dir, 'knowledge');
  return {
    dir,
    pendingDir: join(dir, 'pending'),
    knowledgeDir,
    indexFile: join(knowledgeDir, 'index.md'),
    flushState: join(dir, '.flush-state.json'),
    compileState: join(dir, '.compile-state.json'),
    stateLock: join(dir, '.locks', 'state.lock'),
    appendLock: join(dir, '.locks', 'append.lock'),
    compileLock: join(dir, '.locks', 'compile.lock'),
    locksDir: join(dir, '.locks'),
  };
}

export const DAY_LOG = /^(\d{4}-\d{2}-\d{2})\.md$/;

/** The calendar day of `date` in `timeZone` (config `timezone`, like the L0 day files); default UTC. */
export function dayOf(date: Date, timeZone = 'UTC'): string {
  return dayInZone(date, timeZone);
}
