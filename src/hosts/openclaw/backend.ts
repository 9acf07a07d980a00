/**
 * Where the plugin's memory lives: the engine in this process (engine.ts), or a `strata serve`
 * service (remote.ts) when the plugin's `remote`, `STRATA_URL` or Strata's `remote.url` names one.
 * Hooks, tools and the memory runtime talk to this interface only, so the two modes cannot drift:
 * both run the operations table as the calling agent, recall through the same gate and format, and
 * capture live snapshots through one cleaner (locally into the log, remotely through `capture`).
 */
import type { AutoOrganizeResult } from '../../core/layers/auto-organize.js';
import { resolveCaller } from '../../core/caller.js';
import type { OperationsRunner } from '../../core/ops/index.js';
import type { RecallResult } from '../../core/recall/types.js';
import type { Strata } from '../../strata.js';
import type { SharedEngine } from './engine.js';

/** Automatic recall as MemoryEngine.autoRecall does it (gate, recall, flagged memories left out, block). */
export interface AutoRecallEngine {
  autoRecall(options: {
    query: string;
    scopes?: string[];
    limit?: number;
    maxTokens?: number;
    abortSignal?: AbortSignal;
  }): Promise<{ recalled: boolean; reason: string; block: string; result?: RecallResult }>;
}

export interface LiveSnapshot {
  agentId: string;
  sessionKey: string;
  sessionId?: string;
  messages: unknown[];
  /** Indexing time the capture may wait for (local only; the service indexes on its side). */
  index?: { budgetMs: number };
}

export interface MemoryBackend {
  readonly kind: 'local' | 'remote';
  /** Where the memory lives, for status lines: the home or the service URL. */
  readonly where: string;
  /** The operations table as `agentId` (remote: as the token's agent). */
  ops(agentId: string): Promise<OperationsRunner>;
  /** The automatic-recall engine and the scopes `agentId` reads. */
  recaller(agentId: string): Promise<{ engine: AutoRecallEngine; scopes: string[] }>;
  capture(snapshot: LiveSnapshot): Promise<{ new: number; duplicates: number }>;
  /** Gets the first recall ready (local: store and embedder; remote: the connection). Never rejects. */
  warm(): Promise<void>;
  /** Background work (distillation, organiser, index): local only; the service runs its own. */
  startWorkers(options: { distill: boolean; onOrganize: (r: AutoOrganizeResult) => void }): Promise<void>;
  distillSoon(onOrganize: (r: AutoOrganizeResult) => void): void;
  stop(): Promise<void>;
}

/** The operations of a local engine as `agentId`, recorded in history as OpenClaw's. */
export function strataOps(strata: Strata, agentId: string): OperationsRunner {
  return strata.as(resolveCaller({ config: strata.config, agentId }), { actor: 'openclaw' });
}

export function localBackend(engine: () => SharedEngine): MemoryBackend {
  return {
    kind: 'local',
    get where() {
      return engine().home;
    },
    ops: async (agentId) => strataOps(await engine().strata(), agentId),
    async recaller(agentId) {
      const strata = await engine().strata();
      return { engine: strata, scopes: resolveCaller({ config: strata.config, agentId }).scopes };
    },
    async capture(snapshot) {
      const strata = await engine().strata();
      // One pipeline: the L0 log, then the conversation index; the engine's worker hears of the new messages.
      const result = await strata.capture({ ...snapshot, host: 'openclaw' });
      return { new: result.new, duplicates: result.duplicates };
    },
    warm() {
      const shared = engine();
      const warming = shared.warm();
      shared.track(warming); // a stop waits for it
      return warming;
    },
    startWorkers: (options) => engine().startWorkers(options),
    distillSoon: (onOrganize) => engine().distillSoon(onOrganize),
    stop: () => engine().stop(),
  };
}
