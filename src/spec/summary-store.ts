/**
 * Summary store specification, version 1: where the hierarchical summaries of each agent/session
 * live (src/core/summaries decides what to summarise and merge; this stores the result). One
 * index per session plus the text of each summary. A shared deployment keeps them in the
 * database, so every machine's context bootstrap sees the summaries any machine wrote and two
 * machines never summarise the same session at once.
 */

export interface SummaryEntry {
  /** `L<level>-<4-digit sequence>`, unique in the session. */
  id: string;
  level: number;
  /** Name of the summary's text in the session's storage (`<id>.md`). */
  file: string;
  /** Level 1: message keys covered, in order. Higher levels: the merged summary ids, in order. */
  sourceIds: string[];
  /** Epoch ms of the oldest and newest message covered. */
  from: number;
  to: number;
  /** Estimated tokens of what was summarised, and of the summary itself. */
  sourceTokens: number;
  tokens: number;
  /** Number of L0 messages covered (transitively). */
  messageCount: number;
  /** The summary this one was merged into, or null while it is still unmerged. */
  mergedInto: string | null;
  createdAt: string;
}

export interface SummaryIndex {
  version: 1;
  agentId: string;
  sessionKey: string;
  summaries: SummaryEntry[];
  updatedAt: string | null;
}

export interface SummarySession {
  agentId: string;
  sessionKey: string;
}

export interface SummaryStoreCapabilities {
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
  /** The session lock goes with its holder; otherwise it goes stale after a while (lock files). */
  lockEndsWithHolder: boolean;
}

export interface SummaryStoreV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `files` (under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: SummaryStoreCapabilities;
  /** Runs `fn` holding the session's lock; fails with STORE_LOCKED (retryable) when still held after `timeoutMs`. */
  exclusive<T>(options: SummarySession & { timeoutMs?: number }, fn: () => Promise<T>): Promise<T>;
  /** The session's index; undefined when it has none. Throws a StorageError when it cannot be read as an index of this session. */
  readIndex(options: SummarySession): Promise<SummaryIndex | undefined>;
  /** Indexes of every summarised session of the agent (unreadable ones left out). */
  indexes(options: { agentId: string }): Promise<SummaryIndex[]>;
  /** The text of one summary; undefined when it is missing. */
  readText(options: SummarySession & { id: string }): Promise<string | undefined>;
  /**
   * Stores one new summary's text and the session's new index together: a crash leaves either the
   * old index or the new one, and never an index entry whose text is missing.
   */
  commit(options: SummarySession & { id: string; text: string; index: SummaryIndex }): Promise<void>;
  close(): Promise<void>;
}
