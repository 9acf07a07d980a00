import type { MemoryRecord, StoredMemory } from '../../spec/memory-record.js';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { assertScope } from '../scope.js';
import { contentHash, normalizeText, validateMemoryText } from '../write/normalize.js';
import { redactSecrets } from '../write/redact.js';
import { markRedacted, redactMemoryRecord } from '../write/redact-record.js';
import { detectPromptInjection } from '../write/injection.js';
import { newId } from '../write/ids.js';
import type { EngineContext } from './context.js';
import { recordCreate } from '../history/engine-hooks.js';
import { plainRecord, summarize } from '../history/history-log.js';
import { statesDifferentFacts } from '../write/changed-fact.js';
import type { RememberInput, RememberOptions, RememberResult } from './types.js';

export const INJECTION_TAG = 'suspected-injection';

interface Prepared {
  record: MemoryRecord;
  redactions: number;
  flags: string[];
}

function unit(value: number | undefined, fallback: number, argument: string): number {
  const v = value ?? fallback;
  if (!Number.isFinite(v) || v < 0 || v > 1) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be a number between 0 and 1 (got ${String(value)}).` });
  }
  return v;
}

function isoDate(value: string | undefined, fallback: string, argument: string): string {
  if (value === undefined) return fallback;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw new InvalidArgumentError({ argument, message: `${argument} must be an ISO-8601 date (got ${JSON.stringify(value)}).` });
  return new Date(ms).toISOString();
}

/** Validates, redacts, normalises and stamps one input. Throws before anything is written. */
export function prepareRecord(ctx: EngineContext, input: RememberInput): Prepared {
  if (typeof input.text !== 'string') throw new InvalidArgumentError({ argument: 'text', message: 'text must be a string.' });
  const scope = assertScope(input.scope ?? 'global');
  if (input.category !== undefined && !MEMORY_CATEGORIES.includes(input.category)) {
    throw new InvalidArgumentError({
      argument: 'category',
      message: `Unknown category ${JSON.stringify(input.category)}: use one of ${MEMORY_CATEGORIES.join(', ')}.`,
    });
  }
  validateMemoryText(input.text, { maxChars: ctx.write.maxChars });
  let text = normalizeText(input.text);
  let redactions = 0;
  if (ctx.write.redactSecrets) {
    const redacted = redactSecrets(text);
    text = redacted.text;
    redactions = redacted.count;
    markRedacted(text); // the store boundary sees this text again
  }
  const flags: string[] = [];
  const tags = [...new Set((input.tags ?? []).map((t) => String(t).trim()).filter(Boolean))];
  if (detectPromptInjection(text).suspicious) {
    flags.push(INJECTION_TAG);
    if (!tags.includes(INJECTION_TAG)) tags.push(INJECTION_TAG);
  }
  const now = ctx.now().toISOString();
  let record: MemoryRecord = {
    id: newId(),
    text,
    category: input.category ?? 'other',
    scope,
    importance: unit(input.importance, 0.5, 'importance'),
    confidence: unit(input.confidence, 1, 'confidence'),
    tags,
    source: input.source ?? { kind: 'manual' },
    createdAt: now,
    updatedAt: now,
    validFrom: isoDate(input.validFrom, now, 'validFrom'),
    validTo: null,
    supersedes: null,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    contentHash: contentHash(text),
    embeddingModel: ctx.dimensions > 0 ? ctx.embedderId : 'none',
  };
  if (ctx.write.redactSecrets) {
    // Tags and source fields are stored strings too (the store redacts them again; this makes the returned record match).
    const redacted = redactMemoryRecord(record);
    redactions +=
      redacted.tags.filter((t, i) => t !== record.tags[i]).length +
      (JSON.stringify(redacted.source) !== JSON.stringify(record.source) ? 1 : 0);
    record = redacted;
  }
  return { record, redactions, flags };
}

/**
 * Stores many memories: embeds outside the lock (slow), then under the store's write lock skips
 * exact duplicates (same scope + content hash, in the store or earlier in the batch) and, when
 * `nearDuplicates` is on, memories whose vector is within the threshold of a current one.
 */
export async function rememberMany(
  ctx: EngineContext,
  options: { items: RememberInput[]; nearDuplicates?: boolean; abortSignal?: AbortSignal; actor?: string },
): Promise<RememberResult[]> {
  const prepared = options.items.map((item) => prepareRecord(ctx, item));
  const vectors =
    ctx.dimensions > 0
      ? await ctx.embeddings.embedDocuments({ texts: prepared.map((p) => p.record.text), abortSignal: options.abortSignal })
      : prepared.map(() => null);
  await ctx.store.initMeta({ embedderId: ctx.embedderId, dimensions: ctx.dimensions });

  return ctx.store.withWriteLock(async () => {
    const results: RememberResult[] = new Array(prepared.length);
    const byScope = new Map<string, number[]>();
    prepared.forEach((p, i) => {
      const list = byScope.get(p.record.scope) ?? [];
      list.push(i);
      byScope.set(p.record.scope, list);
    });
    const toInsert: StoredMemory[] = [];
    const superseded = new Map<string, { old: StoredMemory; previous: StoredMemory; by: MemoryRecord }>();
    for (const [scope, indexes] of byScope) {
      const hashes = [...new Set(indexes.map((i) => prepared[i]!.record.contentHash))];
      const existing = await ctx.store.findByHash({ scope, contentHashes: hashes });
      const seen = new Map(existing.filter((r) => r.validTo === null).map((r) => [r.contentHash, r.id]));
      for (const i of indexes) {
        const p = prepared[i]!;
        const dupId = seen.get(p.record.contentHash);
        if (dupId) {
          results[i] = { action: 'duplicate', id: dupId, duplicateOf: { kind: 'exact' }, redactions: p.redactions, flags: p.flags };
          continue;
        }
        const vector = vectors?.[i] ?? null;
        let replaces: StoredMemory | undefined;
        if (options.nearDuplicates !== false && vector) {
          const [hit] = await ctx.store.searchVector({ vector, filter: { scopes: [scope] }, limit: 1 });
          if (hit && hit.score >= ctx.write.nearDuplicateThreshold && !superseded.has(hit.record.id)) {
            // A near-identical statement with another number, date, name or negation is a changed fact: it supersedes.
            if (!statesDifferentFacts(p.record.text, hit.record.text)) {
              results[i] = {
                action: 'duplicate',
                id: hit.record.id,
                duplicateOf: { kind: 'near', similarity: hit.score },
                redactions: p.redactions,
                flags: p.flags,
              };
              continue;
            }
            [replaces] = await ctx.store.get({ ids: [hit.record.id], withVectors: true });
          }
        }
        const record = replaces ? { ...p.record, supersedes: replaces.id } : p.record;
        seen.set(record.contentHash, record.id);
        toInsert.push({ ...record, vector });
        if (replaces) {
          const old: StoredMemory = { ...replaces, validTo: record.createdAt, supersededBy: record.id, updatedAt: record.createdAt };
          superseded.set(old.id, { old, previous: replaces, by: record });
        }
        results[i] = {
          action: 'created',
          id: record.id,
          record,
          redactions: p.redactions,
          flags: p.flags,
          ...(replaces ? { supersedes: replaces.id } : {}),
        };
      }
    }
    if (toInsert.length > 0) {
      await ctx.store.insert({ records: toInsert });
      if (superseded.size > 0) await ctx.store.update({ records: [...superseded.values()].map((s) => s.old) });
      if (ctx.history) {
        const actor = options.actor ?? 'api';
        const plain = toInsert.map(({ vector: _v, ...r }) => r);
        const replacing = new Set([...superseded.values()].map((s) => s.by.id));
        await recordCreate({ history: ctx.history, actor, records: plain.filter((r) => !replacing.has(r.id)) });
        await ctx.history.append({
          entries: [...superseded.values()].map((s) => ({
            id: s.by.id,
            actor,
            action: 'supersede' as const,
            reason: 'changed fact: a near-identical memory with a different number, date, name or negation',
            previous: null,
            next: summarize(s.by),
            related: [{ id: s.old.id, previous: plainRecord(s.previous), next: summarize(s.old) }],
          })),
        });
      }
    }
    return results;
  });
}

export async function remember(ctx: EngineContext, options: RememberOptions): Promise<RememberResult> {
  const [result] = await rememberMany(ctx, { items: [options], abortSignal: options.abortSignal, actor: options.actor });
  return result!;
}
