/**
 * Keeps the conversation index following the L0 log. The index records the last log position it
 * holds (its watermark); catching up reads the log after it, builds each turn's document (with its
 * neighbours, see `document.ts`), upserts, then moves the watermark. A crash anywhere between the
 * log append and the watermark write leaves the watermark behind, never ahead, so the next run
 * indexes what is missing, and upserts by id make the overlap harmless: nothing lost, nothing twice.
 */
import { StrataError } from '../../errors/index.js';
import type { L0Record } from '../../spec/conversation.js';
import {
  CONVERSATION_INDEX_SCHEMA_VERSION,
  type ConversationDocument,
  type ConversationIndexV2,
  type ConversationSessionRef,
} from '../../spec/conversation-index.js';
import type { L0Entry, L0LogV1, L0Position } from '../../spec/l0-log.js';
import type { EmbeddingService } from '../embedding/embedding-service.js';
import { buildTurnDocument, conversationDocumentId, turnDate, type BuildTurnDocument } from './document.js';

export interface ConversationIndexerOptions {
  l0: L0LogV1;
  index: ConversationIndexV2;
  embedderId: string;
  /** 0 without an embedder: the index is then full-text only. */
  dimensions: number;
  buildDocument?: BuildTurnDocument;
  /** Log entries read (and documents upserted) per step. Default 2,000. */
  pageSize?: number;
}

export interface CatchUpOptions {
  /** Re-read the whole log (repair after the index was damaged or built by older code). */
  fromStart?: boolean;
  /** Stop after about this many entries (the rest waits for the next run). */
  maxEntries?: number;
  /** Stop after about this long; waiting for another writer's lock counts too (then nothing is done). */
  budgetMs?: number;
  abortSignal?: AbortSignal;
}

export interface CatchUpResult {
  read: number;
  inserted: number;
  updated: number;
  watermark: L0Position | undefined;
  /** The index holds the whole log (false: a budget stopped it first). */
  done: boolean;
  /** The index was dropped first (built by another embedder or an older layout). */
  rebuilt: boolean;
  /** Another process held the index within the budget: it is catching up already. */
  locked?: boolean;
}

export interface ConversationIndexStatus {
  watermark: L0Position | undefined;
  /** Log entries after the watermark (not indexed yet). */
  behind: number;
  /** With `verify`: log entries whose document is missing from the index, wherever they are. */
  missing?: number;
  /** Log entries read by the check. */
  entries?: number;
  documents: number;
  unembedded: number;
  /** The index was built by another embedder or layout: the next catch-up rebuilds it. */
  rebuildNeeded: boolean;
}

interface Tail {
  doc: ConversationDocument;
  previous?: L0Record;
}

/** Entries read past a page to learn each session's next turn before writing the page. */
const LOOKAHEAD = 64;

const sessionOf = (r: L0Record): ConversationSessionRef => ({ host: r.host, agentId: r.agentId, sessionId: r.sessionId });
const sessionKey = (s: ConversationSessionRef): string => JSON.stringify([s.host, s.agentId, s.sessionId]);

export class ConversationIndexer {
  private readonly build: BuildTurnDocument;
  private readonly pageSize: number;

  constructor(private readonly options: ConversationIndexerOptions) {
    this.build = options.buildDocument ?? buildTurnDocument;
    this.pageSize = options.pageSize ?? 2_000;
  }

  get index(): ConversationIndexV2 {
    return this.options.index;
  }

  /** Indexes log entries after the watermark (all of them with `fromStart`), under the index's write lock. */
  async catchUp(options: CatchUpOptions = {}): Promise<CatchUpResult> {
    try {
      return await this.catchUpLocked(options);
    } catch (error) {
      // With a budget, a busy index is not worth waiting for: its holder indexes the log too, and
      // whatever it misses is picked up by the next catch-up.
      if (options.budgetMs === undefined || !(StrataError.isInstance(error) && error.code === 'STORE_LOCKED')) throw error;
      return { read: 0, inserted: 0, updated: 0, watermark: undefined, done: false, rebuilt: false, locked: true };
    }
  }

  private catchUpLocked(options: CatchUpOptions): Promise<CatchUpResult> {
    const { l0, index } = this.options;
    const lock = options.budgetMs === undefined ? undefined : { timeoutMs: Math.max(50, options.budgetMs) };
    return index.withWriteLock(async () => {
      const rebuilt = await this.prepare();
      const result: CatchUpResult = { read: 0, inserted: 0, updated: 0, watermark: undefined, done: false, rebuilt };
      let after = options.fromStart || rebuilt ? undefined : await index.watermark();
      const tails = new Map<string, Tail>();
      const started = Date.now();
      for (;;) {
        options.abortSignal?.throwIfAborted();
        const page = await l0.read({ after, limit: this.pageSize + LOOKAHEAD, abortSignal: options.abortSignal });
        const entries = page.entries.slice(0, this.pageSize);
        const ahead = page.entries.slice(entries.length);
        const end = ahead.length > 0 ? entries.at(-1)!.position : page.end;
        const documents = await this.documentsFor(entries, ahead, tails);
        if (end !== undefined && (documents.length > 0 || end !== after)) {
          const written = await index.upsert({ documents, watermark: end });
          result.inserted += written.inserted;
          result.updated += written.updated;
        }
        result.read += entries.length;
        after = end;
        result.watermark = after;
        if (page.done && ahead.length === 0) return { ...result, done: true };
        const overBudget =
          (options.maxEntries !== undefined && result.read >= options.maxEntries) ||
          (options.budgetMs !== undefined && Date.now() - started >= options.budgetMs);
        if (overBudget) return result;
      }
    }, lock);
  }

  /**
   * Rebuilds an index built by another embedder or an older layout from the log (the source of
   * truth) before it is searched: its rows would not read as this version's documents. Vectors
   * follow in the background (`embedPending`). Resolves whether it had to.
   */
  async rebuildIfStale(options: { abortSignal?: AbortSignal } = {}): Promise<boolean> {
    if (!(await this.stale())) return false;
    await this.catchUp({ abortSignal: options.abortSignal });
    return true;
  }

  /** How far the index is behind the log; `verify` also checks every entry's document is there. */
  async status(options: { verify?: boolean; abortSignal?: AbortSignal } = {}): Promise<ConversationIndexStatus> {
    const { l0, index } = this.options;
    const rebuildNeeded = await this.stale();
    const watermark = rebuildNeeded ? undefined : await index.watermark();
    const status: ConversationIndexStatus = {
      watermark,
      behind: 0,
      documents: await index.count(),
      unembedded: this.options.dimensions > 0 ? await index.count({ embedded: false }) : 0,
      rebuildNeeded,
    };
    for (let after = watermark, done = false; !done;) {
      const page = await l0.read({ after, limit: this.pageSize, abortSignal: options.abortSignal });
      status.behind += page.entries.length;
      ({ end: after, done } = page);
    }
    if (!options.verify) return status;
    status.missing = 0;
    status.entries = 0;
    for (let after: L0Position | undefined, done = false; !done;) {
      const page = await l0.read({ after, limit: this.pageSize, abortSignal: options.abortSignal });
      const ids = page.entries.map((e) => conversationDocumentId(e.record));
      const present = rebuildNeeded ? new Set<string>() : await index.existingIds({ ids });
      status.entries += ids.length;
      status.missing += ids.filter((id) => !present.has(id)).length;
      ({ end: after, done } = page);
    }
    return status;
  }

  /** Brings the index's search structures up to date when enough was written (`force`: always). */
  optimize(options: { force?: boolean } = {}): Promise<boolean> {
    const { index } = this.options;
    return index.withWriteLock(() => index.optimize(options));
  }

  /** Embeds documents that have no vector yet, through the engine's embedding service. */
  async embedPending(options: {
    embeddings: EmbeddingService;
    batchSize?: number;
    budgetMs?: number;
    abortSignal?: AbortSignal;
  }): Promise<{ embedded: number; remaining: number }> {
    const { index } = this.options;
    if (!options.embeddings.producesVectors || this.options.dimensions === 0 || (await this.stale())) return { embedded: 0, remaining: 0 };
    const started = Date.now();
    let embedded = 0;
    for (;;) {
      const docs = await index.unembedded({ limit: options.batchSize ?? 256 });
      if (docs.length === 0) break;
      const vectors = await options.embeddings.embedDocuments({
        texts: docs.map((d) => d.embeddingText),
        abortSignal: options.abortSignal,
      });
      if (!vectors) break;
      const { updated } = await index.withWriteLock(() =>
        index.setVectors({ vectors: docs.map((d, i) => ({ id: d.id, embeddingText: d.embeddingText, vector: vectors[i]! })) }),
      );
      embedded += updated;
      if (updated === 0 || (options.budgetMs !== undefined && Date.now() - started >= options.budgetMs)) break;
    }
    return { embedded, remaining: await index.count({ embedded: false }) };
  }

  /** Whether the stored index was built by another embedder or layout. */
  private async stale(): Promise<boolean> {
    const meta = await this.options.index.getMeta();
    return (
      meta !== null &&
      (meta.embedderId !== this.options.embedderId ||
        meta.dimensions !== this.options.dimensions ||
        meta.schemaVersion !== CONVERSATION_INDEX_SCHEMA_VERSION)
    );
  }

  /** Makes the index ready for this embedder; true when it had to be dropped (rebuilt from the log). */
  private async prepare(): Promise<boolean> {
    const { index, embedderId, dimensions } = this.options;
    const stale = await this.stale();
    if (stale) await index.reset();
    await index.initMeta({ embedderId, dimensions });
    return stale;
  }

  /**
   * Documents for a page of entries, plus the documents of earlier turns whose text changes now
   * that their successor is known. `tails` carries each session's last turn across pages; `ahead`
   * (entries after the page) gives the page's last turns their successor before they are written.
   */
  private async documentsFor(entries: L0Entry[], ahead: L0Entry[], tails: Map<string, Tail>): Promise<ConversationDocument[]> {
    const first = new Map<string, { ref: ConversationSessionRef; position: L0Position }>();
    for (const e of entries) {
      const ref = sessionOf(e.record);
      const key = sessionKey(ref);
      if (!tails.has(key) && !first.has(key)) first.set(key, { ref, position: e.position });
    }
    if (first.size > 0) {
      const latest = await this.options.index.latestOfSessions({ sessions: [...first.values()].map((f) => f.ref), perSession: 2 });
      for (const [key, f] of first) {
        // Only turns before this one (a rebuild from the start meets newer stored documents).
        const before = latest.filter((d) => sessionKey(sessionOf(d.record)) === key && d.position < f.position);
        const last = before.at(-1);
        if (last) tails.set(key, { doc: last, previous: before.at(-2)?.record });
      }
    }
    const out = new Map<string, ConversationDocument>();
    for (const { record, position } of entries) {
      const key = sessionKey(sessionOf(record));
      const tail = tails.get(key);
      const doc: ConversationDocument = {
        id: conversationDocumentId(record),
        record,
        position,
        ...this.build({ turn: record, previous: tail?.doc.record, sessionDate: turnDate(record) }),
      };
      if (tail) {
        const built = this.build({ turn: tail.doc.record, previous: tail.previous, next: record, sessionDate: turnDate(tail.doc.record) });
        if (built.text !== tail.doc.text || built.embeddingText !== tail.doc.embeddingText) out.set(tail.doc.id, { ...tail.doc, ...built });
      }
      out.set(doc.id, doc);
      tails.set(key, { doc, previous: tail?.doc.record });
    }
    const waiting = new Set(entries.map((e) => sessionKey(sessionOf(e.record))));
    for (const { record } of ahead) {
      const key = sessionKey(sessionOf(record));
      const tail = tails.get(key);
      if (!waiting.delete(key) || !tail) continue;
      const doc = {
        ...tail.doc,
        ...this.build({ turn: tail.doc.record, previous: tail.previous, next: record, sessionDate: turnDate(tail.doc.record) }),
      };
      out.set(doc.id, doc);
      tails.set(key, { ...tail, doc });
    }
    return [...out.values()];
  }
}
