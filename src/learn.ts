/**
 * `Strata#learn` (mem0's `add(messages)`): record a conversation and distil it into memories in one
 * call, and `Strata#deleteAll`, the owner's delete by scope/category/date. Kept beside strata.ts
 * so the class only delegates.
 */
import { ulid } from 'ulid';
import { deleteIds, selectForDelete, type BulkFilter } from './core/bulk-delete.js';
import type { DistillReport } from './core/distill/index.js';
import type { Strata } from './strata.js';

export interface LearnOptions {
  /** The conversation: `{ role, content }` messages (OpenAI/mem0 shape; content as text or parts). */
  messages: Array<{ role: string; content: unknown; timestamp?: number | string }>;
  /** Whose memories these become (`agent:<id>`); default `scopes.defaultAgent`, else `main`. */
  agentId?: string;
  /** The session the messages belong to; default a new one per call. Reusing it appends only new messages. */
  sessionKey?: string;
  /** Decide but store nothing (the messages are not recorded either). */
  dryRun?: boolean;
  abortSignal?: AbortSignal;
}

type CaptureResult = Awaited<ReturnType<Strata['capture']>>;

export interface LearnResult {
  agentId: string;
  sessionKey: string;
  /** Messages recorded in the conversation log (new ones; a repeat call records none). */
  captured: Pick<CaptureResult, 'considered' | 'new' | 'duplicates' | 'redactions'>;
  distill: DistillReport;
}

export async function learn(strata: Strata, options: LearnOptions): Promise<LearnResult> {
  const agentId = options.agentId ?? strata.config.scopes.defaultAgent ?? 'main';
  const sessionKey = options.sessionKey ?? `learn-${ulid()}`;
  // The capture pipeline appends to L0 and indexes in one step: searchable at once, like every capture path.
  const captured = await strata.capture({ agentId, sessionKey, messages: options.messages, host: 'live', dryRun: options.dryRun });
  const distill = await strata.distill({ agentId, dryRun: options.dryRun, abortSignal: options.abortSignal });
  return {
    agentId,
    sessionKey,
    captured: { considered: captured.considered, new: captured.new, duplicates: captured.duplicates, redactions: captured.redactions },
    distill,
  };
}

export interface DeleteAllOptions extends BulkFilter {
  /** Count and list, delete nothing. */
  dryRun?: boolean;
}

/** Deletes every memory matching the filter, in every scope unless `scopes` narrows it (owner mode). */
export async function deleteAll(
  strata: Strata,
  options: DeleteAllOptions = {},
): Promise<{ matched: number; deleted: number; ids: string[] }> {
  const ops = strata.as({ agentId: null, scopes: ['global'], writeScope: 'global', owner: true }, { actor: 'api' });
  const ids = (await selectForDelete(ops, options)).map((r) => r.id);
  if (options.dryRun || ids.length === 0) return { matched: ids.length, deleted: 0, ids };
  return { matched: ids.length, deleted: await deleteIds(ops, ids), ids };
}
