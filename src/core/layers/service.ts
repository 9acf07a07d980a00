/**
 * The organiser as the engine runs it: the configured limits of `layers`, an agent's scopes with
 * its grants, and the "is it due" check after a distillation (used by the background worker).
 */
import { ConfigError } from '../../errors/index.js';
import type { LayerStoreV1 } from '../../spec/layer-store.js';
import type { MemoryStoreV1 } from '../../spec/memory-store.js';
import type { DistillReport } from '../distill/run.js';
import type { LlmClient } from '../llm/llm-client.js';
import { agentScopes } from '../scope.js';
import type { AgentRunner } from './agent-loop.js';
import { agentsOfMemories, autoOrganize, type AutoOrganizeResult } from './auto-organize.js';
import { organizeScenes, type MemoryLister, type OrganizeOptions, type OrganizeReport } from './organiser.js';

export interface LayerSettings {
  scenes: { limit: number; backups: number; maxTurns: number; timeoutMs: number; maxMemoriesPerRun: number };
  persona: { regenerateEveryMemories: number; backups: number };
  organizer: { auto: boolean; everyMemories: number; minIntervalMs: number };
}

export interface LayerServiceOptions {
  home: string;
  layers: LayerSettings;
  agentGrants: Record<string, string[]>;
  llm: LlmClient | undefined;
  /** Runs the organiser's tool loop on a host's agent runtime instead of `llm` (see AgentRunner). */
  organiserRunner?: AgentRunner;
  memories: MemoryLister;
  store: MemoryStoreV1;
  /** Where the organiser reads and commits scenes, persona and checkpoint. */
  layerStore: LayerStoreV1;
}

export class LayerService {
  constructor(private readonly options: LayerServiceOptions) {}

  /** Organiser options for one agent (scopes: the agent's, with its grants). */
  private organizeOptions(agentId: string, llm: LlmClient): OrganizeOptions {
    const { scenes, persona } = this.options.layers;
    return {
      home: this.options.home,
      agentId,
      llm,
      ...(this.options.organiserRunner ? { runner: this.options.organiserRunner } : {}),
      memories: this.options.memories,
      layerStore: this.options.layerStore,
      scopes: agentScopes(agentId, this.options.agentGrants[agentId] ?? []),
      maxScenes: scenes.limit,
      backupKeep: scenes.backups,
      maxTurns: scenes.maxTurns,
      timeoutMs: scenes.timeoutMs,
      maxMemoriesPerRun: scenes.maxMemoriesPerRun,
      personaEveryN: persona.regenerateEveryMemories,
      personaBackupKeep: persona.backups,
    };
  }

  /** One organiser run for an agent with the configured limits (`strata organize`); needs a tool-capable LLM. */
  organize(options: {
    agentId: string;
    maxScenes?: number;
    maxMemoriesPerRun?: number;
    lockTimeoutMs?: number;
    abortSignal?: AbortSignal;
  }): Promise<OrganizeReport> {
    const llm = this.options.llm;
    if (!llm) {
      throw new ConfigError({
        field: 'llm.provider',
        message:
          'Organising scenes needs an LLM: set llm.provider and llm.model in config.json (or STRATA_LLM_PROVIDER / STRATA_LLM_MODEL).',
      });
    }
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    return organizeScenes({ ...this.organizeOptions(options.agentId, llm), ...given });
  }

  /**
   * After a distillation: runs the organiser of each agent the run stored memories for (or of
   * `agentIds`) when it is due by config `layers.organizer`. Does nothing when `auto` is off or no
   * LLM is configured. Never throws: failures come back as results (and through `onResult`).
   */
  async organizeIfDue(
    options: { report?: DistillReport; agentIds?: string[]; onResult?: (r: AutoOrganizeResult) => void; abortSignal?: AbortSignal } = {},
  ): Promise<AutoOrganizeResult[]> {
    const auto = this.options.layers.organizer;
    if (!auto.auto || options.report?.dryRun) return [];
    const results: AutoOrganizeResult[] = [];
    const emit = (r: AutoOrganizeResult) => {
      results.push(r);
      try {
        options.onResult?.(r);
      } catch {
        // a failing log callback must not stop the background worker
      }
    };
    let agents: string[];
    try {
      agents = options.agentIds ?? (await this.agentsStoredBy(options.report));
    } catch (error) {
      emit({ agentId: options.agentIds?.join(',') ?? '*', status: 'failed', error });
      return results;
    }
    const llm = this.options.llm;
    if (!llm || agents.length === 0) return results;
    for (const agentId of agents) {
      if (options.abortSignal?.aborted) break;
      emit(
        await autoOrganize({
          ...this.organizeOptions(agentId, llm),
          everyMemories: auto.everyMemories,
          minIntervalMs: auto.minIntervalMs,
          abortSignal: options.abortSignal,
        }),
      );
    }
    return results;
  }

  /** Agents whose memories a distill run created or changed. */
  private async agentsStoredBy(report: DistillReport | undefined): Promise<string[]> {
    const ids = [...new Set((report?.changes ?? []).filter((c) => c.kind !== 'skip' && c.id).map((c) => c.id!))];
    if (ids.length === 0) return [];
    return agentsOfMemories(await this.options.store.get({ ids }));
  }
}
