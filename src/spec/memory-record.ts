/**
 * The memory record: the unit Strata stores, recalls and reconciles.
 * Times are ISO-8601 UTC strings so records round-trip through JSON unchanged.
 */
export const MEMORY_CATEGORIES = ['preference', 'fact', 'decision', 'entity', 'event', 'rule', 'lesson', 'other'] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

export const SOURCE_KINDS = ['manual', 'capture', 'distill', 'import'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface MemorySource {
  kind: SourceKind;
  agentId?: string;
  sessionKey?: string;
  messageIds?: string[];
}

export interface MemoryRecord {
  /** ULID: sortable by creation time, unique across processes. */
  id: string;
  text: string;
  category: MemoryCategory;
  scope: string;
  importance: number;
  confidence: number;
  tags: string[];
  source: MemorySource;
  createdAt: string;
  updatedAt: string;
  validFrom: string;
  /** null while the memory is current; set when it is superseded or expired. */
  validTo: string | null;
  supersedes: string | null;
  supersededBy: string | null;
  accessCount: number;
  lastAccessedAt: string | null;
  /** sha256 of the normalised text, for exact dedupe within a scope. */
  contentHash: string;
  /** Embedder id that produced `vector` ('none' when there is no vector). */
  embeddingModel: string;
}

/** A record together with its embedding, as the store holds it. */
export interface StoredMemory extends MemoryRecord {
  vector: number[] | null;
}

export function isCurrent(record: Pick<MemoryRecord, 'validTo'>): boolean {
  return record.validTo === null;
}
