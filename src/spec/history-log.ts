/**
 * Memory history log specification, version 1: storage for every change to a memory (create,
 * update, merge, supersede, forget, revert), kept apart from the store so a rebuilt or re-embedded
 * store keeps its history. Storage only: the engine stamps entries (ids, times) and redacts them
 * before they reach the backend. A shared deployment keeps it beside the store (PostgreSQL), so
 * `strata history` / `revert` see the changes every machine made.
 */
import type { MemoryRecord } from './memory-record.js';

export const HISTORY_ACTIONS = ['create', 'update', 'merge', 'supersede', 'keep-both', 'forget', 'revert'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** Who made the change: `cli`, `distill`, `mcp`, `api`, a host name, ... */
export type HistoryActor = string;

/** What the memory looks like after the change (null when it no longer exists). */
export interface HistoryNext {
  text: string;
  scope: string;
  category: string;
  validTo: string | null;
  supersedes: string | null;
  supersededBy: string | null;
}

/** Another memory the same change touched (e.g. the predecessor of a supersede). */
export interface HistoryRelated {
  id: string;
  /** The full record before the change; null when the change created it. */
  previous: MemoryRecord | null;
  next: HistoryNext | null;
}

export interface HistoryEntry {
  /** Id of this entry (ULID, sortable). */
  entryId: string;
  /** The memory the change is about. */
  id: string;
  at: string;
  actor: HistoryActor;
  action: HistoryAction;
  reason: string;
  /** The full record before the change; null when the change created it. */
  previous: MemoryRecord | null;
  next: HistoryNext | null;
  related?: HistoryRelated[];
  /** For `revert`: the entry that was undone. */
  reverts?: string;
}

export interface HistoryLogCapabilities {
  /** Several processes (machines, for a server backend) may append at once. */
  concurrentWriters: boolean;
  /** `historyOf` reads an index rather than every entry. */
  indexedLookup: boolean;
}

export interface HistoryLogV1 {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly capabilities: HistoryLogCapabilities;
  /** Stores stamped entries, all or none of a call; concurrent appends never interleave or lose entries. */
  append(options: { entries: HistoryEntry[] }): Promise<void>;
  /** Every entry about `id` (as the subject or a related memory), oldest first: by `at`, then `entryId`. */
  historyOf(options: { id: string }): Promise<HistoryEntry[]>;
  /** Every entry, in the order appended. */
  entries(): AsyncIterable<HistoryEntry>;
  close(): Promise<void>;
}
