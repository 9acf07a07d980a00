/**
 * L0 log specification, version 1: the append-only, deduplicated record of every captured
 * conversation message. Everything downstream (conversation index, distillation, summaries,
 * journal, provenance) reads it through this interface, never through files.
 *
 * Positions are opaque strings that compare (plain string order, `<`) in log order: a record
 * appended later always gets a greater position, so a reader that keeps the last position it
 * consumed can resume exactly there, in this process or after a restart.
 */
import type { ConversationHost, L0Record } from './conversation.js';

export type L0Position = string;

export interface L0Entry {
  /** Where the record sits in the log; unique, and greater than every earlier entry's. */
  position: L0Position;
  record: L0Record;
}

export interface L0LogCapabilities {
  /** Several processes may append at once (the backend serialises them). */
  concurrentAppends: boolean;
  /** `readSession` uses an index instead of scanning the log. */
  indexedSessionReads: boolean;
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
  /** A crash can leave a torn tail that `repair` (and the next append) cuts off. */
  tornTails: boolean;
}

export interface L0AppendResult {
  written: number;
  /** Records dropped because the log already holds them (same entry id, or same role, time and text). */
  duplicates: number;
  /** The entries written, in order, with their positions (empty for a dry run). */
  entries: L0Entry[];
  /** The records that would be (or were) written, in order. */
  records: L0Record[];
}

export interface L0ReadResult {
  /** Complete entries after the `after` position, in log order. */
  entries: L0Entry[];
  /**
   * Where the next read continues: the last returned entry's position, or further when the read
   * stepped over lines that hold no record (a torn or corrupt line). Pass it as `after`.
   */
  end: L0Position | undefined;
  /** Nothing more in the log right now. */
  done: boolean;
}

export interface L0SessionFilter {
  agentId?: string;
  sessionId?: string;
  sessionKey?: string;
  host?: ConversationHost;
  /** ISO time (or a `YYYY-MM-DD` day): entries recorded before it are left out. */
  recordedSince?: string;
}

export interface L0SessionInfo {
  host: ConversationHost;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  messages: number;
  firstTimestamp: number;
  lastTimestamp: number;
  lastRecordedAt: string;
}

export interface L0RepairResult {
  /** Bytes (or rows) of torn tails removed. */
  truncated: number;
  /** Records whose dedupe fingerprints were rebuilt from the log. */
  reindexed: number;
}

export interface L0LogV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `jsonl` (daily files under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: L0LogCapabilities;

  /** Appends the records not already in the log; `dryRun` only counts. Durable when it resolves. */
  append(options: { records: L0Record[]; dryRun?: boolean; abortSignal?: AbortSignal }): Promise<L0AppendResult>;
  /** Entries after `after` (from the start when omitted), at most `limit` (default 1,000). */
  read(options?: { after?: L0Position; limit?: number; abortSignal?: AbortSignal }): Promise<L0ReadResult>;
  /** Every entry of the sessions matching the filter, in log order. */
  readSession(options: L0SessionFilter & { abortSignal?: AbortSignal }): Promise<L0Entry[]>;
  /** Sessions in the log, most recently active first. */
  sessions(options?: { agentId?: string; host?: ConversationHost; abortSignal?: AbortSignal }): Promise<L0SessionInfo[]>;
  /** Whether the log already holds this record (entry id or content match). */
  has(options: { record: L0Record }): Promise<boolean>;
  /** Cuts torn tails left by a crashed writer and rebuilds what dedupe needs from the log. */
  repair(): Promise<L0RepairResult>;
  /**
   * Maps a cursor written before positions existed (a day file name and a byte offset into it)
   * to a position. Only logs that existed before L0LogV1 (the daily JSONL files) have it.
   */
  legacyPosition?(options: { file: string; offset: number }): L0Position;
  close(): Promise<void>;
}
