import { NotFoundError } from '../../errors/index.js';
import type { MemoryRecord, StoredMemory } from '../../spec/memory-record.js';
import type { EngineContext } from '../engine/context.js';
import { type HistoryActor, type HistoryEntry, type HistoryLog, type HistoryRelated, plainRecord, summarize } from './history-log.js';

export interface RevertResult {
  /** The entry that was undone. */
  reverted: HistoryEntry;
  /** The `revert` entry just written. */
  entry: HistoryEntry;
  /** Ids restored to their previous record, and ids deleted (changes that had created them). */
  restored: string[];
  deleted: string[];
}

interface Target {
  id: string;
  previous: MemoryRecord | null;
}

/**
 * Undoes the last change involving `id`: every memory the change touched goes back to its
 * previous record (validTo / supersededBy of a superseded predecessor included), a memory the
 * change created is deleted, a forgotten one is re-inserted. Vectors are not kept in history, so
 * a restored text is embedded again (outside the store lock). The undo is itself logged as a
 * `revert`, so reverting twice re-applies the change.
 */
export async function revertLast(options: {
  ctx: EngineContext;
  history: HistoryLog;
  id: string;
  actor?: HistoryActor;
  reason?: string;
  abortSignal?: AbortSignal;
  /** Sees the entry about to be undone; returning false refuses it as not found (a caller's scope check). */
  accept?: (entry: HistoryEntry) => boolean;
}): Promise<RevertResult> {
  const { ctx, history } = options;
  const entries = await history.historyOf({ id: options.id });
  const last = entries[entries.length - 1];
  if (!last || (options.accept && !options.accept(last))) {
    throw new NotFoundError({ what: 'history entry for memory', id: options.id });
  }
  const targets: Target[] = [
    { id: last.id, previous: last.previous },
    ...(last.related ?? []).map((r) => ({ id: r.id, previous: r.previous })),
  ];
  const ids = targets.map((t) => t.id);

  // Embed restored texts before taking the lock (embedding is the slow part).
  const before = new Map((await ctx.store.get({ ids, withVectors: true })).map((r) => [r.id, r]));
  const needEmbedding = targets.filter((t) => t.previous && ctx.dimensions > 0 && before.get(t.id)?.text !== t.previous.text);
  const vectors = new Map<string, number[] | null>();
  if (needEmbedding.length > 0) {
    const embedded = await ctx.embeddings.embedDocuments({
      texts: needEmbedding.map((t) => t.previous!.text),
      abortSignal: options.abortSignal,
    });
    needEmbedding.forEach((t, i) => vectors.set(t.id, embedded?.[i] ?? null));
  }

  const now = ctx.now().toISOString();
  const restored: string[] = [];
  const deleted: string[] = [];
  const currents = await ctx.store.withWriteLock(async () => {
    const current = new Map((await ctx.store.get({ ids, withVectors: true })).map((r) => [r.id, r]));
    const toUpdate: StoredMemory[] = [];
    const toInsert: StoredMemory[] = [];
    const toDelete: string[] = [];
    for (const t of targets) {
      const row = current.get(t.id);
      if (!t.previous) {
        if (row) toDelete.push(t.id);
        deleted.push(t.id);
        continue;
      }
      const vector = vectors.has(t.id) ? (vectors.get(t.id) ?? null) : (row?.vector ?? null);
      const record: StoredMemory = { ...t.previous, updatedAt: now, vector };
      (row ? toUpdate : toInsert).push(record);
      restored.push(t.id);
    }
    if (toDelete.length > 0) await ctx.store.delete({ ids: toDelete });
    if (toUpdate.length > 0) await ctx.store.update({ records: toUpdate });
    if (toInsert.length > 0) await ctx.store.insert({ records: toInsert });
    return current;
  });

  const primary = targets[0]!;
  const currentOf = (id: string): MemoryRecord | null => {
    const row = currents.get(id);
    return row ? plainRecord(row) : null;
  };
  const related: HistoryRelated[] = targets.slice(1).map((t) => ({ id: t.id, previous: currentOf(t.id), next: summarize(t.previous) }));
  const [entry] = await history.append({
    entries: [
      {
        id: primary.id,
        actor: options.actor ?? 'cli',
        action: 'revert',
        reason: options.reason ?? `undo ${last.action} ${last.entryId}`,
        previous: currentOf(primary.id),
        next: summarize(primary.previous),
        ...(related.length > 0 ? { related } : {}),
        reverts: last.entryId,
      },
    ],
    now: ctx.now(),
  });
  return { reverted: last, entry: entry!, restored, deleted };
}
