/**
 * Automatic organiser runs for background workers (`strata watch`, the OpenClaw service, the
 * Claude Code background process): once `everyMemories` new memories have accumulated since an
 * agent's organiser checkpoint and `minIntervalMs` has passed since its last run, one organiser
 * run happens. Runs serialise on the organiser's own lock (a busy lock means another process is
 * doing this work, so the attempt is skipped, not queued). Never throws: a background worker must
 * not die of a failed LLM call, so every outcome, failures included, comes back as a result.
 */
import { StrataError } from '../../errors/index.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { agentScopes } from '../scope.js';
import { parseCheckpoint } from './checkpoint.js';
import { FileLayerStore } from './file-store.js';
import { AUTO_ORGANIZE_DEFAULTS } from './defaults.js';
import { newMemories, organizeScenes, type OrganizeOptions, type OrganizeReport } from './organiser.js';
import { assertAgentId } from './paths.js';

export interface AutoOrganizeOptions extends OrganizeOptions {
  /** New memories since the checkpoint that make a run due. Default 20. */
  everyMemories?: number;
  /** Least time since the agent's last organiser run. Default 15 minutes. */
  minIntervalMs?: number;
}

export type AutoOrganizeResult =
  | { agentId: string; status: 'organized'; pending: number; report: OrganizeReport }
  | { agentId: string; status: 'not-due'; reason: 'below-threshold' | 'too-soon'; pending: number }
  /** Another run of this agent holds the organiser lock. */
  | { agentId: string; status: 'busy' }
  /** The run failed; the organiser restored the scenes folder from its backup. */
  | { agentId: string; status: 'failed'; error: unknown };

function isLocked(error: unknown): boolean {
  return StrataError.isInstance(error) && error.code === 'STORE_LOCKED';
}

/** Decides whether the agent's organiser is due and, if so, runs it once. */
export async function autoOrganize(options: AutoOrganizeOptions): Promise<AutoOrganizeResult> {
  const { agentId } = options;
  try {
    assertAgentId(agentId);
    const store = options.layerStore ?? new FileLayerStore({ home: options.home });
    const read = await store.read({ agentId, names: ['checkpoint.json'] });
    const checkpoint = parseCheckpoint(read.files['checkpoint.json'], agentId);
    const everyMemories = options.everyMemories ?? AUTO_ORGANIZE_DEFAULTS.everyMemories;
    const scopes = options.scopes ?? agentScopes(agentId);
    // Counting stops at the threshold: only "enough or not" matters here.
    const pending = (await newMemories({ memories: options.memories, scopes, checkpoint, limit: everyMemories })).length;
    if (pending < everyMemories) return { agentId, status: 'not-due', reason: 'below-threshold', pending };
    const now = (options.now ?? (() => new Date()))().getTime();
    const lastRun = checkpoint.lastRunAt === null ? Number.NaN : Date.parse(checkpoint.lastRunAt);
    if (now - lastRun < (options.minIntervalMs ?? AUTO_ORGANIZE_DEFAULTS.minIntervalMs)) {
      return { agentId, status: 'not-due', reason: 'too-soon', pending };
    }
    const report = await organizeScenes({ ...options, scopes, lockTimeoutMs: options.lockTimeoutMs ?? 0 });
    return { agentId, status: 'organized', pending, report };
  } catch (error) {
    if (isLocked(error)) return { agentId, status: 'busy' };
    return { agentId, status: 'failed', error };
  }
}

/**
 * The agents whose organiser may have become due because these memories were stored: the owner
 * of an `agent:<id>` scope, and the agent a distilled memory came from (global memories too).
 * Ids outside the scene-file alphabet are left out: such an agent cannot have scenes.
 */
export function agentsOfMemories(records: ReadonlyArray<Pick<MemoryRecord, 'scope' | 'source'>>): string[] {
  const agents = new Set<string>();
  const add = (id: string | undefined) => {
    if (id === undefined) return;
    try {
      agents.add(assertAgentId(id));
    } catch {
      // not a valid scenes agent id: nothing to organise for it
    }
  };
  for (const r of records) {
    if (r.scope.startsWith('agent:')) add(r.scope.slice('agent:'.length));
    add(r.source.agentId);
  }
  return [...agents].sort();
}

/** One line for logs: what an automatic organiser attempt did. */
export function describeAutoOrganize(result: AutoOrganizeResult): string {
  switch (result.status) {
    case 'organized': {
      const r = result.report;
      const persona = r.persona
        ? r.persona.written
          ? '; persona rewritten'
          : `; persona not written (${r.persona.error ?? r.persona.reason ?? 'unknown'})`
        : '';
      const redone = r.conflicts > 0 ? `; redone ${r.conflicts}x on another process's newer version` : '';
      return `organised ${r.memoriesProcessed} memories of ${result.agentId} into ${r.sceneCount} scenes (created ${r.created.length}, updated ${r.updated.length}, deleted ${r.deleted.length})${persona}${redone}`;
    }
    case 'not-due':
      return `organiser for ${result.agentId} not due (${result.reason}, ${result.pending} new memories)`;
    case 'busy':
      return `organiser for ${result.agentId} skipped: another run holds its lock`;
    case 'failed': {
      const e = result.error;
      const message = StrataError.isInstance(e) ? `[${e.code}] ${e.message}` : ((e as Error)?.message ?? String(e));
      return `organiser for ${result.agentId} failed (scenes left as they were; retried after the next distillation): ${message}`;
    }
  }
}
