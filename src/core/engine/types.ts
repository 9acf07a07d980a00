import type { MemoryCategory, MemoryRecord, MemorySource } from '../../spec/memory-record.js';
import type { StoreStats } from '../../spec/memory-store.js';

/** What a caller gives `remember`; everything but text and scope has a default. */
export interface RememberInput {
  text: string;
  scope?: string;
  category?: MemoryCategory;
  importance?: number;
  confidence?: number;
  tags?: string[];
  source?: MemorySource;
  /** When the fact became true (e.g. the session date); defaults to now. */
  validFrom?: string;
}

export interface RememberOptions extends RememberInput {
  abortSignal?: AbortSignal;
  /** Who made the change, for the history log (cli, mcp, distill, ...). Default 'api'. */
  actor?: string;
}

export type RememberAction = 'created' | 'duplicate';

export interface RememberResult {
  action: RememberAction;
  id: string;
  /** Why it counted as a duplicate: identical normalised text, or vector similarity. */
  duplicateOf?: { kind: 'exact' | 'near'; similarity?: number };
  record?: MemoryRecord;
  /** Set when the new memory replaced a near-identical one that stated a different fact (kept as history). */
  supersedes?: string;
  redactions: number;
  /** Flags raised on the text, e.g. `suspected-injection`. */
  flags: string[];
}

export interface UpdateOptions {
  id: string;
  /** Restricts the update to memories the caller can see; omitted = any scope (admin paths). */
  scopes?: string[];
  text?: string;
  category?: MemoryCategory;
  importance?: number;
  confidence?: number;
  tags?: string[];
  scope?: string;
  validTo?: string | null;
  abortSignal?: AbortSignal;
  actor?: string;
  reason?: string;
}

export interface ListMemoriesOptions {
  scopes: string[];
  categories?: MemoryCategory[];
  tags?: string[];
  includeHistory?: boolean;
  limit?: number;
  offset?: number;
  order?: 'newest' | 'oldest';
}

export interface EngineStats extends StoreStats {
  embedder: { id: string; dimensions: number };
  store: { provider: string };
  queryCache?: { cacheHits: number; cacheMisses: number; cacheSize: number; calls: number };
}

export interface ProgressEvent {
  done: number;
  total?: number;
}
