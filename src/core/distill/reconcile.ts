import { z } from 'zod';
import type { LlmUsage, LlmV1 } from '../../spec/llm.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import type { EngineContext } from '../engine/context.js';
import type { LlmClient } from '../llm/llm-client.js';
import { generateObject } from '../llm/generate-object.js';
import { LlmOutputError } from '../llm/llm-output-error.js';
import { countTokens } from './tokens.js';
import { contentHash } from '../write/normalize.js';
import { statesDifferentFacts } from '../write/changed-fact.js';
import { statedAtOf, type Candidate } from './extract.js';
import { judgeInBatch, newOfflineBatch, noteInBatch } from './reconcile-offline.js';
import { sameContext, slotOf } from './slots.js';

/**
 * Reconciliation: decides, for each admitted candidate, how it relates to the current memories of
 * its scope. Cheap cases are settled without a model (exact duplicate, near duplicate by vector,
 * nothing similar); the rest go to ONE batched LLM call. Decisions are applied by `applyDecisions`.
 */
export const DECISION_KINDS = ['create', 'skip', 'merge', 'supersede', 'keep-both'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

export interface SimilarMemory {
  record: MemoryRecord;
  /** Cosine similarity when found by vector; undefined when found by text only. */
  similarity?: number;
}

export interface Decision {
  candidate: Candidate;
  kind: DecisionKind;
  /** The existing memory a skip / merge / supersede / keep-both refers to. */
  targetId?: string;
  /** Instead of `targetId`: the earlier candidate of the same batch whose memory this refers to (offline only). */
  targetCandidate?: number;
  /** A supersede that ends more than its target (offline only): retellings of what the change dropped. */
  also?: Array<{ targetId?: string; targetCandidate?: number }>;
  /** New text: the merged text for merge, the contextualised text for keep-both. */
  text?: string;
  reason: string;
  /** How the decision was reached. */
  by: 'exact' | 'near' | 'none-similar' | 'llm' | 'rules';
  /** Vector of `candidate.text`, reused when storing. */
  vector: number[] | null;
}

export const decisionSchema = z.object({
  decisions: z.array(
    z.object({
      index: z.number().int().min(0),
      action: z.enum(DECISION_KINDS),
      targetId: z.string().nullable(),
      text: z.string().nullable(),
      reason: z.string(),
    }),
  ),
});

const SYSTEM_PROMPT = `You keep an AI agent's long-term memory consistent. For each NEW candidate memory you see the most
similar EXISTING memories. Choose one action per candidate:
- "create": new information, unrelated to the existing memories.
- "skip": the same information is already stored (duplicate or strictly weaker); targetId = that memory.
- "merge": it adds detail to an existing memory about the same thing; targetId = that memory, text = one merged
  atomic memory (at most 500 characters) that keeps every fact of both.
- "supersede": it replaces an existing memory that is no longer true (a changed preference, fact or decision);
  targetId = the outdated memory. The old one is kept as history.
- "keep-both": they only seem to conflict (different contexts, e.g. work vs. home); text = the candidate rewritten
  to state its context, targetId = the memory it seems to conflict with.
A candidate stated BEFORE the existing memory it conflicts with is outdated: choose "skip", never "supersede"
(this is also enforced after your answer).
targetId must be one of the ids listed for that candidate, or null for "create". Give a short reason.
Return {"decisions": [...]} with one entry per candidate index.`;

/** Current memories of the scope about the same single-valued choice (see slots.ts), newest first. */
export async function sameSlot(options: {
  ctx: EngineContext;
  candidate: Candidate;
  cache: Map<string, MemoryRecord[]>;
}): Promise<MemoryRecord[]> {
  const slot = slotOf(options.candidate.text);
  if (!slot) return [];
  const current = await currentOfScope({ ctx: options.ctx, scope: options.candidate.scope, cache: options.cache });
  return current.filter((r) => slotOf(r.text)?.slot === slot.slot);
}

/** Current memories of a scope, newest first (cached for the batch). */
async function currentOfScope(options: { ctx: EngineContext; scope: string; cache: Map<string, MemoryRecord[]> }): Promise<MemoryRecord[]> {
  let current = options.cache.get(options.scope);
  if (!current) {
    current = (await options.ctx.store.list({ filter: { scopes: [options.scope] }, limit: 5000 }))
      .filter((r) => r.validTo === null)
      .sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom));
    options.cache.set(options.scope, current);
  }
  return current;
}

/** Up to `limit` current memories of the candidate's scope, by vector and by text, best first. */
export async function findSimilar(options: {
  ctx: EngineContext;
  candidate: Candidate;
  vector: number[] | null;
  limit?: number;
}): Promise<SimilarMemory[]> {
  const { ctx, candidate } = options;
  const limit = options.limit ?? 3;
  const filter = { scopes: [candidate.scope] };
  const byId = new Map<string, SimilarMemory>();
  if (options.vector && ctx.store.capabilities.vectorSearch) {
    for (const hit of await ctx.store.searchVector({ vector: options.vector, filter, limit })) {
      byId.set(hit.record.id, { record: hit.record, similarity: hit.score });
    }
  }
  if (ctx.store.capabilities.fullTextSearch) {
    const query = [candidate.text, ...candidate.keywords].join(' ');
    for (const hit of await ctx.store.searchText({ query, filter, limit })) {
      if (!byId.has(hit.record.id)) byId.set(hit.record.id, { record: hit.record });
    }
  }
  return [...byId.values()].filter((s) => s.record.validTo === null).slice(0, limit * 2);
}

export interface ReconcileResult {
  decisions: Decision[];
  usage: LlmUsage;
  llmCalls: number;
}

/**
 * Decides for a batch of candidates. With `llm`, ambiguous candidates go to one call; without,
 * anything that is not an exact or near duplicate is created. `llm` is only called when at least
 * one candidate has similar memories that are not obvious duplicates.
 */
export async function reconcile(options: {
  ctx: EngineContext;
  candidates: Candidate[];
  llm?: LlmV1 | LlmClient;
  abortSignal?: AbortSignal;
}): Promise<ReconcileResult> {
  const { ctx, candidates } = options;
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  if (candidates.length === 0) return { decisions: [], usage, llmCalls: 0 };
  const vectors =
    ctx.dimensions > 0
      ? ((await ctx.embeddings.embedDocuments({ texts: candidates.map((c) => c.text), abortSignal: options.abortSignal })) ?? [])
      : [];
  const decisions: Array<Decision | undefined> = new Array(candidates.length);
  const ambiguous: Array<{ index: number; similar: SimilarMemory[] }> = [];
  const batchHashes = new Map<string, number>();
  const slotCache = new Map<string, MemoryRecord[]>();
  const batch = newOfflineBatch();

  for (const [index, candidate] of candidates.entries()) {
    const vector = vectors[index] ?? null;
    const hashKey = `${candidate.scope}\u0000${contentHash(candidate.text)}`;
    const base = { candidate, vector };
    const earlier = batchHashes.get(hashKey);
    if (earlier !== undefined) {
      decisions[index] = {
        ...base,
        kind: 'skip',
        targetCandidate: earlier,
        reason: `same text as candidate ${earlier} of this batch`,
        by: 'exact',
      };
      continue;
    }
    batchHashes.set(hashKey, index);
    const sameText = await ctx.store.findByHash({ scope: candidate.scope, contentHashes: [contentHash(candidate.text)] });
    const exact = sameText.find((r) => r.validTo === null);
    if (exact) {
      decisions[index] = { ...base, kind: 'skip', targetId: exact.id, reason: 'identical text already stored', by: 'exact' };
      continue;
    }
    // A redo after a crash (the cursor did not move) must not revive a memory superseded since.
    const sources = new Set(candidate.sourceMessageIds);
    const replay = sameText.find(
      (r) => r.source.sessionKey === candidate.sessionKey && (r.source.messageIds ?? []).some((id) => sources.has(id)),
    );
    if (replay) {
      decisions[index] = { ...base, kind: 'skip', targetId: replay.id, reason: 'already distilled from the same messages', by: 'exact' };
      continue;
    }
    const similar = await findSimilar({ ctx, candidate, vector });
    if (!options.llm) {
      const verdict = judgeInBatch({
        batch,
        candidate,
        vector,
        stored: await currentOfScope({ ctx, scope: candidate.scope, cache: slotCache }),
        similar,
        nearDuplicateThreshold: ctx.write.nearDuplicateThreshold,
      });
      const target = verdict.target;
      decisions[index] = {
        ...base,
        kind: verdict.kind,
        ...(target && 'id' in target ? { targetId: target.id } : {}),
        ...(target && 'candidate' in target ? { targetCandidate: target.candidate } : {}),
        ...(verdict.also ? { also: verdict.also.map((r) => ('id' in r ? { targetId: r.id } : { targetCandidate: r.candidate })) } : {}),
        reason: verdict.reason,
        by: verdict.by,
      };
      noteInBatch({ batch, candidate, index, vector, verdict });
      continue;
    }
    const slot = slotOf(candidate.text);
    const slotMates = slot
      ? (await sameSlot({ ctx, candidate, cache: slotCache })).filter((m) => sameContext(candidate.text, m.text, slot))
      : [];
    for (const m of slotMates) if (!similar.some((x) => x.record.id === m.id)) similar.push({ record: m });
    const near = similar.find((s) => s.similarity !== undefined && s.similarity >= ctx.write.nearDuplicateThreshold);
    if (near && !statesDifferentFacts(candidate.text, near.record.text)) {
      decisions[index] = {
        ...base,
        kind: 'skip',
        targetId: near.record.id,
        reason: `near duplicate (similarity ${near.similarity!.toFixed(3)})`,
        by: 'near',
      };
      continue;
    }
    if (similar.length === 0) {
      decisions[index] = { ...base, kind: 'create', reason: 'nothing similar stored', by: 'none-similar' };
      continue;
    }
    ambiguous.push({ index, similar });
  }

  let llmCalls = 0;
  if (ambiguous.length > 0 && options.llm) {
    const payload = {
      candidates: ambiguous.map((a, i) => ({
        index: i,
        text: candidates[a.index]!.text,
        category: candidates[a.index]!.category,
        stated: new Date(statedAtOf(candidates[a.index]!)).toISOString().slice(0, 10),
        existing: a.similar.map((s) => ({
          id: s.record.id,
          text: s.record.text,
          category: s.record.category,
          since: s.record.validFrom.slice(0, 10),
        })),
      })),
    };
    llmCalls++;
    // A model that cannot produce the decisions (even after the repair turn) must not stall
    // distillation on this chunk forever: the candidates are created, so nothing is lost.
    let unusable: string | undefined;
    const result = await generateObject({
      llm: options.llm,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: JSON.stringify(payload) },
      ],
      schema: decisionSchema,
      schemaName: 'decisions',
      purpose: 'distill.reconcile',
      maxTokens: 400 + 200 * ambiguous.length,
      temperature: 0,
      abortSignal: options.abortSignal,
    }).catch((error: unknown) => {
      if (!(error instanceof LlmOutputError)) throw error;
      unusable = error.message;
      return { object: { decisions: [] }, usage: { inputTokens: 0, outputTokens: 0 } };
    });
    usage.inputTokens += result.usage.inputTokens;
    usage.outputTokens += result.usage.outputTokens;
    const byIndex = new Map(result.object.decisions.map((d) => [d.index, d]));
    for (const [i, a] of ambiguous.entries()) {
      const candidate = candidates[a.index]!;
      const vector = vectors[a.index] ?? null;
      const d = byIndex.get(i);
      const allowed = new Set(a.similar.map((s) => s.record.id));
      const target = d?.targetId && allowed.has(d.targetId.toUpperCase()) ? d.targetId.toUpperCase() : undefined;
      // An action that needs a target without a valid one degrades to create: never touch a memory the model invented.
      if (!d || (d.action !== 'create' && !target) || (d.action === 'merge' && !d.text?.trim())) {
        decisions[a.index] = {
          candidate,
          vector,
          kind: 'create',
          reason: d
            ? `invalid ${d.action} decision (${d.reason}); created instead`
            : unusable
              ? `reconcile reply unusable (${unusable.slice(0, 160)}); created instead`
              : 'no decision returned',
          by: 'llm',
        };
        continue;
      }
      const text = d.text?.trim() || undefined;
      const targetRecord = a.similar.find((s) => s.record.id === target)?.record;
      // Enforced here, not only asked of the model: an older statement never replaces a newer one.
      if (d.action === 'supersede' && targetRecord && statedAtOf(candidate) < Date.parse(targetRecord.validFrom)) {
        decisions[a.index] = {
          candidate,
          vector,
          kind: 'skip',
          targetId: target,
          reason: `stated before ${target} (${targetRecord.validFrom.slice(0, 10)}); not superseding a newer memory`,
          by: 'llm',
        };
        continue;
      }
      decisions[a.index] = {
        candidate,
        vector,
        kind: d.action,
        targetId: target,
        text: d.action === 'merge' || d.action === 'keep-both' ? text : undefined,
        reason: d.reason,
        by: 'llm',
      };
    }
  }
  return { decisions: decisions.map((d) => d!), usage, llmCalls };
}

/** Estimated input tokens of a reconcile call for `n` candidates (budget pre-check). */
export function estimateReconcileTokens(candidates: Candidate[]): number {
  return countTokens(SYSTEM_PROMPT) + candidates.reduce((sum, c) => sum + 4 * countTokens(c.text) + 40, 0);
}
