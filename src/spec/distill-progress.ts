/**
 * Distill progress specification, version 1: how far distillation has read one L0 log, its LLM
 * budget window, and the one lock that makes a single run at a time distil that log. Storage
 * only: the engine decides what is done (src/core/distill/l0-source.ts). A progress store is bound
 * to one L0 log (its positions mean nothing for another log), so a shared L0 log on a database
 * gets shared progress there, and two engines on it never distil the same range twice.
 */
import type { L0Position } from './l0-log.js';

/** Everything at or before `after` is distilled, plus the message keys past it already done. */
export interface DistillCursorState {
  version: 2;
  after?: L0Position;
  done: string[];
}

/**
 * The cursor kept before L0LogV1 (byte offsets per day file of the JSONL log); only the file
 * backend can hold one, and the engine migrates it on the next run.
 */
export interface LegacyDistillCursorState {
  version?: 1;
  files?: Record<string, number>;
  done?: string[];
}

/** The hourly LLM budget window of distillation (calls and tokens spent since `windowStart`). */
export interface DistillBudgetWindow {
  windowStart: string;
  calls: number;
  tokens: number;
}

export interface DistillProgressCapabilities {
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
  /** The lock goes with its holder (a dead process's connection); otherwise it goes stale after `staleMs`. */
  lockEndsWithHolder: boolean;
}

export interface DistillLockOptions {
  /** How long to wait for another run's lock; past it the call fails with STORE_LOCKED (retryable). Default 0. */
  timeoutMs?: number;
  /** A lock not refreshed for this long is taken over (backends whose lock can outlive its holder). */
  staleMs?: number;
  abortSignal?: AbortSignal;
}

export interface DistillProgressV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `files` (under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: DistillProgressCapabilities;
  /**
   * Runs `fn` holding the log's distill lock: no other holder (process or machine) runs at the
   * same time. Fails with STORE_LOCKED when it is still held after `timeoutMs`.
   */
  exclusive<T>(options: DistillLockOptions, fn: () => Promise<T>): Promise<T>;
  /** The stored cursor; undefined when nothing was distilled yet. */
  readCursor(): Promise<DistillCursorState | LegacyDistillCursorState | undefined>;
  /** Replaces the cursor, atomically (a crash keeps the old one or the new one). */
  writeCursor(options: { state: DistillCursorState }): Promise<void>;
  readBudget(): Promise<DistillBudgetWindow | undefined>;
  writeBudget(options: { window: DistillBudgetWindow }): Promise<void>;
  close(): Promise<void>;
}
