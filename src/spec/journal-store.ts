/**
 * Journal store specification, version 1: where the daily journal lives (src/core/journal decides
 * what to write; this stores it). Day logs, flushes kept for a retry, per-session flush progress,
 * per-day compile state and the compiled knowledge articles with their index. A shared deployment
 * keeps them in the database, so every machine reads one journal and two machines never flush one
 * session's messages or compile one day log twice.
 */

/** What the last flush of a session covered, so the next one sends only what is new. */
export interface JournalSessionProgress {
  agentId: string | null;
  /** ISO time of the last flush that gathered content (written, nothing kept, or kept as pending). */
  lastFlushAt: string;
  lastMessageId: string;
  lastMessageTimestamp: number;
  /** Messages covered so far. */
  count: number;
}

/** A flush whose generation finally failed: its exact input, retried by a later flush. */
export interface JournalPendingFlush {
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

/** What the last compile of one day log covered. */
export interface JournalCompiledDay {
  /** sha256 of the day log compiled. */
  hash: string;
  /** Characters compiled: when the log only grew, the next compile sends what follows. */
  length: number;
  compiledAt: string;
}

/** A knowledge article as stored: its slug (`[a-z0-9-]`) and its full text. */
export interface JournalArticleText {
  slug: string;
  text: string;
}

/** Flushes of one session serialise; compiles serialise journal-wide. */
export type JournalLock = { kind: 'session'; sessionId: string } | { kind: 'compile' };

/** The outcome of a pending retry: written, kept with the failure, held by another process, or already gone. */
export type JournalPendingOutcome = 'done' | 'failed' | 'busy' | 'gone';

/** The end of a flush (see JournalStoreV1.commitFlush). */
export interface JournalFlushCommit {
  sessionId: string;
  progress: JournalSessionProgress;
  /** ISO: sessions whose last flush is older are forgotten. */
  forgetBefore: string;
  entry?: { day: string; text: string };
  pending?: JournalPendingFlush;
}

/** A retry of a pending flush: the entry to append, or why it failed again. */
export type JournalPendingRetry = (
  pending: JournalPendingFlush,
) => Promise<{ ok: true; day: string; text: string } | { ok: false; error: string }>;

/** The end of one day's compile (see JournalStoreV1.commitCompile). */
export interface JournalCompileCommit {
  day: string;
  compiled: JournalCompiledDay;
  articles: JournalArticleText[];
  index: string;
}

export interface JournalStoreCapabilities {
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
  /** A lock goes with its holder; otherwise it goes stale after a while (lock files). */
  lockEndsWithHolder: boolean;
}

export interface JournalStoreV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `files` (under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: JournalStoreCapabilities;
  /** Runs `fn` holding `lock`; fails with STORE_LOCKED (retryable) when still held after `timeoutMs`. */
  exclusive<T>(options: { lock: JournalLock; timeoutMs: number }, fn: () => Promise<T>): Promise<T>;

  /** Where people find the day log of `day` (YYYY-MM-DD): a file path or a table row. */
  dayLocation(day: string): string;
  /** Days that have a log, oldest first. */
  days(): Promise<string[]>;
  /** The day log's text; undefined when the day has none. */
  readDay(day: string): Promise<string | undefined>;
  /**
   * Appends `text` to the day's log (created with the title `# Journal <day>` when missing), as one
   * step: readers never see a torn entry and concurrent appends lose nothing.
   */
  appendToDay(options: { day: string; text: string }): Promise<void>;

  /** The session's flush progress; undefined when it was never flushed (or was forgotten). */
  readProgress(sessionId: string): Promise<JournalSessionProgress | undefined>;
  /**
   * Ends a flush: appends `entry` to its day log, or keeps `pending` for a retry, and records the
   * session's progress. Sessions whose last flush is older than `forgetBefore` (ISO) are forgotten.
   * Returns where the pending flush was kept. On a shared store this is one transaction.
   */
  commitFlush(options: JournalFlushCommit): Promise<{ pendingId?: string }>;

  /** Ids of the pending flushes, oldest first. */
  listPending(): Promise<string[]>;
  /**
   * Runs `fn` on a pending flush while holding it (`busy` when another process does). When `fn`
   * returns an entry, the entry is appended and the pending flush removed together; otherwise the
   * failure is recorded and it is kept.
   */
  withPending(id: string, fn: JournalPendingRetry): Promise<JournalPendingOutcome>;

  /** Compile state by day (YYYY-MM-DD). */
  readCompiled(): Promise<Record<string, JournalCompiledDay>>;
  /** Every article, by slug order. */
  readArticles(): Promise<JournalArticleText[]>;
  /** The generated knowledge index; undefined before the first compile. */
  readIndex(): Promise<string | undefined>;
  /** Ends the compile of one day: writes its articles, the new index and the day's compile state. */
  commitCompile(options: JournalCompileCommit): Promise<void>;
  close(): Promise<void>;
}
