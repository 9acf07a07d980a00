/**
 * Conversation index specification, version 2: storage for the searchable copy of the L0 log.
 * Storage only: the engine decides what text each turn is indexed with, embeds it (through its
 * embedding service) and fuses the lexical and vector channels. Version 2 keeps two texts per
 * turn: the lexical `text` (the turn with its neighbours and date, rewritten when the next turn
 * arrives) and the `embeddingText` the vector describes (the turn's own words, never rewritten), so
 * a new neighbour never costs an embedding. Filters are structured values;
 * each backend escapes them itself.
 *
 * The index follows the log by a watermark (the last L0 position it holds), kept with the
 * documents, so an index that fell behind (a crash between the log append and the index write)
 * catches up by reading the log after it. Writes are upserts by id, so catching up twice is
 * harmless.
 */
import type { ConversationRole, L0Record } from './conversation.js';
import type { L0Position } from './l0-log.js';

/** Bumped when the stored layout changes; an index of another version is rebuilt from the log. */
export const CONVERSATION_INDEX_SCHEMA_VERSION = 3;

export interface ConversationDocument {
  /** One per L0 record: host, agent, session and entry id (see `conversationDocumentId`). */
  id: string;
  record: L0Record;
  /** The record's position in the L0 log. */
  position: L0Position;
  /** The text the full-text channel searches (built by the engine; may include neighbouring turns). */
  text: string;
  /** The text the vector describes (the engine embeds it): the turn's own words. */
  embeddingText: string;
}

export interface StoredConversationDocument extends ConversationDocument {
  /** null until the engine has embedded `embeddingText` (or always, without an embedder). */
  vector: number[] | null;
}

export interface ConversationIndexCapabilities {
  fullTextSearch: boolean;
  vectorSearch: boolean;
  /** Several processes may write at once (the backend serialises them). */
  concurrentWriters: boolean;
  /** Documents per upsert call the backend handles well. */
  maxBatchUpsert: number;
}

export interface ConversationIndexMeta {
  embedderId: string;
  dimensions: number;
  schemaVersion: number;
  createdAt: string;
}

export interface ConversationFilter {
  /** Only these agents; undefined = every agent (owner reads), [] = none. */
  agentIds?: string[];
  sessionKey?: string;
  /** Only these roles; undefined = every role. */
  roles?: ConversationRole[];
}

export interface ConversationIndexHit {
  document: ConversationDocument;
  /** The stored vector: from `searchVector` always, from `searchText` with `withVectors`; else absent. */
  vector?: number[] | null;
  /** Backend-native score: BM25 for text, cosine similarity for vectors. */
  score: number;
}

/** One (host, agent, session) of the log. */
export interface ConversationSessionRef {
  host: L0Record['host'];
  agentId: string;
  sessionId: string;
}

export interface ConversationIndexV2 {
  readonly specificationVersion: 'v2';
  readonly provider: string;
  readonly capabilities: ConversationIndexCapabilities;

  /** null for an index never written. */
  getMeta(): Promise<ConversationIndexMeta | null>;
  /** Records the embedder on first use; EMBEDDER_MISMATCH when another one is recorded. */
  initMeta(options: { embedderId: string; dimensions: number }): Promise<ConversationIndexMeta>;

  /**
   * Inserts new documents and replaces those whose `text` or `embeddingText` changed. The vector
   * is kept while `embeddingText` is unchanged and dropped when it changed (it described the old
   * words). With `watermark`, records it once the documents are durable (never before).
   */
  upsert(options: { documents: ConversationDocument[]; watermark?: L0Position }): Promise<{ inserted: number; updated: number }>;
  /** The last L0 position recorded by `upsert`; undefined for an index that holds none. */
  watermark(): Promise<L0Position | undefined>;
  get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredConversationDocument[]>;
  existingIds(options: { ids: string[] }): Promise<Set<string>>;
  /**
   * Per session, its `perSession` (default 1) documents with the greatest positions, in log order:
   * the turns a new one follows.
   */
  latestOfSessions(options: { sessions: ConversationSessionRef[]; perSession?: number }): Promise<ConversationDocument[]>;

  /** Documents without a vector (any order). */
  unembedded(options: { limit: number }): Promise<ConversationDocument[]>;
  /** Stores vectors of `embeddingText`; one whose document's embedding text changed meanwhile is ignored (it is embedded again). */
  setVectors(options: { vectors: Array<{ id: string; embeddingText: string; vector: number[] }> }): Promise<{ updated: number }>;

  /** With `withVectors`, hits carry their stored vector (fusion scores lexical hits by it too). */
  searchText(options: { query: string; limit: number; filter: ConversationFilter; withVectors?: boolean }): Promise<ConversationIndexHit[]>;
  searchVector(options: { vector: number[]; limit: number; filter: ConversationFilter }): Promise<ConversationIndexHit[]>;
  count(options?: { filter?: ConversationFilter; embedded?: boolean }): Promise<number>;

  /**
   * Runs `fn` holding the index's cross-process write lock (catching up from the log). Waits up to
   * `timeoutMs` for it (a backend default otherwise), then fails with STORE_LOCKED.
   */
  withWriteLock<T>(fn: () => Promise<T>, options?: { timeoutMs?: number }): Promise<T>;
  /** Removes every document, the watermark and the meta (a rebuild from the log follows). */
  reset(): Promise<void>;
  /**
   * Brings search indexes up to date and compacts storage when enough was written since the last
   * time (always with `force`). Resolves `false` when there was nothing worth doing.
   */
  optimize(options?: { force?: boolean }): Promise<boolean>;
  close(): Promise<void>;
}
