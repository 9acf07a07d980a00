import type { MemoryRecord, StoredMemory } from '../../spec/memory-record.js';
import type { EngineContext } from '../engine/context.js';
import { prepareRecord } from '../engine/write-path.js';
import type { HistoryEntryInput, HistoryLog } from '../history/history-log.js';
import { plainRecord, summarize } from '../history/history-log.js';
import { contentHash, normalizeText } from '../write/normalize.js';
import type { Decision, DecisionKind } from './reconcile.js';

/**
 * Applies reconciliation decisions in one store write lock, then logs every change. Each write is
 * re-checked under the lock (a memory with the same text already current means "skip"), which is
 * what makes re-running a chunk after a crash idempotent.
 */
export interface AppliedDecision {
  kind: DecisionKind;
  /** The memory created or changed (the existing one for skip). */
  id?: string;
  targetId?: string;
  reason: string;
}

function inputOf(d: Decision, text: string) {
  const c = d.candidate;
  return {
    text,
    scope: c.scope,
    category: c.category,
    importance: c.importance,
    confidence: c.confidence,
    tags: c.keywords,
    source: { kind: 'distill' as const, agentId: c.agentId, sessionKey: c.sessionKey, messageIds: c.sourceMessageIds },
    validFrom: c.validFrom,
  };
}

export async function applyDecisions(options: {
  ctx: EngineContext;
  history: HistoryLog;
  decisions: Decision[];
  actor?: string;
  abortSignal?: AbortSignal;
}): Promise<AppliedDecision[]> {
  const { ctx } = options;
  const actor = options.actor ?? 'distill';
  // Texts that differ from the candidate's (merged, contextualised) need their own vectors.
  const newTexts = options.decisions.map((d) =>
    (d.kind === 'merge' || d.kind === 'keep-both') && d.text && d.text !== d.candidate.text ? d.text : undefined,
  );
  const toEmbed = newTexts.flatMap((t, i) => (t === undefined ? [] : [{ i, t: normalizeText(t) }]));
  const extra = new Map<number, number[] | null>();
  if (ctx.dimensions > 0 && toEmbed.length > 0) {
    const vectors = await ctx.embeddings.embedDocuments({ texts: toEmbed.map((e) => e.t), abortSignal: options.abortSignal });
    toEmbed.forEach((e, k) => extra.set(e.i, vectors?.[k] ?? null));
  }
  await ctx.store.initMeta({ embedderId: ctx.embedderId, dimensions: ctx.dimensions });

  const entries: HistoryEntryInput[] = [];
  const applied = await ctx.store.withWriteLock(async () => {
    const out: AppliedDecision[] = [];
    const now = ctx.now().toISOString();
    const inserts: StoredMemory[] = [];
    const updates = new Map<string, StoredMemory>();
    const insertedHashes = new Map<string, string>();

    const currentDuplicate = async (record: MemoryRecord): Promise<string | undefined> => {
      const key = `${record.scope}\u0000${record.contentHash}`;
      const batch = insertedHashes.get(key);
      if (batch) return batch;
      const [hit] = (await ctx.store.findByHash({ scope: record.scope, contentHashes: [record.contentHash] })).filter(
        (r) => r.validTo === null && !updates.has(r.id),
      );
      return hit?.id;
    };
    const create = async (d: Decision, text: string, vector: number[] | null, extraFields: Partial<MemoryRecord> = {}) => {
      let prepared: MemoryRecord;
      try {
        prepared = prepareRecord(ctx, inputOf(d, text)).record;
      } catch {
        prepared = prepareRecord(ctx, inputOf(d, d.candidate.text)).record; // an unusable model rewrite falls back to the candidate
        vector = d.vector;
      }
      const record = { ...prepared, ...extraFields };
      const dup = await currentDuplicate(record);
      if (dup) return { duplicate: dup };
      insertedHashes.set(`${record.scope}\u0000${record.contentHash}`, record.id);
      inserts.push({ ...record, vector });
      return { record };
    };
    // The memory each decision of the batch stored, so a later decision can name it (offline reconcile).
    const madeBy = new Map<number, string>();
    const currentTarget = async (d: Pick<Decision, 'targetId' | 'targetCandidate'>) => {
      if (d.targetCandidate !== undefined) {
        const made = inserts.find((r) => r.id === madeBy.get(d.targetCandidate!));
        return made && made.validTo === null ? made : undefined;
      }
      const id = d.targetId;
      if (!id) return undefined;
      const pending = updates.get(id);
      if (pending) return pending.validTo === null ? pending : undefined;
      const [row] = await ctx.store.get({ ids: [id], withVectors: true });
      return row && row.validTo === null ? row : undefined;
    };

    for (const [i, d] of options.decisions.entries()) {
      const kind = d.kind;
      if (kind === 'skip') {
        const id = d.targetCandidate !== undefined ? madeBy.get(d.targetCandidate) : d.targetId;
        out.push({ kind, id, targetId: id, reason: d.reason });
        continue;
      }
      const target = kind === 'create' ? undefined : await currentTarget(d);
      if (kind === 'merge' && target && d.text) {
        const text = normalizeText(d.text);
        const messageIds = [...new Set([...(target.source.messageIds ?? []), ...d.candidate.sourceMessageIds])];
        const next: StoredMemory = {
          ...target,
          text,
          contentHash: contentHash(text),
          vector: extra.has(i) ? (extra.get(i) ?? null) : target.vector,
          importance: Math.max(target.importance, d.candidate.importance),
          tags: [...new Set([...target.tags, ...d.candidate.keywords])],
          source: { ...target.source, messageIds },
          updatedAt: now,
        };
        updates.set(target.id, next);
        entries.push({ id: target.id, actor, action: 'merge', reason: d.reason, previous: plainRecord(target), next: summarize(next) });
        out.push({ kind, id: target.id, targetId: target.id, reason: d.reason });
        continue;
      }
      if (kind === 'supersede' && target) {
        const made = await create(d, d.candidate.text, d.vector, { supersedes: target.id });
        if ('duplicate' in made) {
          out.push({ kind: 'skip', id: made.duplicate, reason: 'already stored (re-run)' });
          continue;
        }
        madeBy.set(i, made.record.id);
        const ended = [target];
        for (const ref of d.also ?? []) {
          const more = await currentTarget(ref);
          if (more && !ended.some((e) => e.id === more.id)) ended.push(more);
        }
        const related = ended.map((t) => {
          // The old memory stopped being true when its successor started, not when this run happened
          // (never before it started itself, should the successor claim an earlier date).
          const validTo = Date.parse(made.record.validFrom) >= Date.parse(t.validFrom) ? made.record.validFrom : t.validFrom;
          const old: StoredMemory = { ...t, validTo, supersededBy: made.record.id, updatedAt: now };
          // A memory made earlier in this batch is not stored yet: it is inserted as already replaced.
          const pending = inserts.findIndex((r) => r.id === t.id);
          if (pending >= 0) inserts[pending] = old;
          else updates.set(t.id, old);
          return { id: t.id, previous: plainRecord(t), next: summarize(old) };
        });
        entries.push({
          id: made.record.id,
          actor,
          action: 'supersede',
          reason: d.reason,
          previous: null,
          next: summarize(made.record),
          related,
        });
        out.push({ kind, id: made.record.id, targetId: target.id, reason: d.reason });
        continue;
      }
      // create, keep-both, or a merge/supersede whose target vanished meanwhile: store the candidate.
      const effective: DecisionKind = kind === 'keep-both' && target ? 'keep-both' : 'create';
      const text = effective === 'keep-both' && d.text ? d.text : d.candidate.text;
      const made = await create(d, text, extra.has(i) && effective === 'keep-both' ? (extra.get(i) ?? null) : d.vector);
      if ('duplicate' in made) {
        out.push({ kind: 'skip', id: made.duplicate, reason: 'already stored' });
        continue;
      }
      madeBy.set(i, made.record.id);
      // keep-both names the other memory in the reason only: it is not changed, so a revert must not touch it.
      const reason =
        effective === kind
          ? effective === 'keep-both'
            ? `${d.reason} (kept alongside ${target?.id ?? '?'})`
            : d.reason
          : `${kind} target ${d.targetId ?? '?'} is no longer current; created instead`;
      entries.push({
        id: made.record.id,
        actor,
        action: effective === 'keep-both' ? 'keep-both' : 'create',
        reason,
        previous: null,
        next: summarize(made.record),
      });
      out.push({ kind: effective, id: made.record.id, targetId: target?.id, reason });
    }
    if (inserts.length > 0) await ctx.store.insert({ records: inserts });
    if (updates.size > 0) await ctx.store.update({ records: [...updates.values()] });
    return out;
  });
  await options.history.append({ entries, now: ctx.now() });
  return applied;
}
