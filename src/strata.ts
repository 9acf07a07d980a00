/**
 * The one place where configuration meets concrete backends. The core engine only knows the
 * spec interfaces; everything LanceDB-, model- or HTTP-specific is chosen here.
 */
import type { EmbedderV1 } from './spec/embedder.js';
import type { MemoryStoreV1 } from './spec/memory-store.js';
import type { RerankerV1 } from './spec/reranker.js';
import type { LlmV1 } from './spec/llm.js';
import { MemoryEngine } from './core/engine/memory-engine.js';
import type { EngineContext } from './core/engine/context.js';
import { createEmbeddingService } from './core/embedding/embedding-service.js';
import { loadConfig, type LoadedConfig, type StrataConfigOverrides } from './config/load.js';
import { llmProviderOf, type StrataConfig } from './config/schema.js';
import { createLanceDbStore } from './backends/store-lancedb/index.js';
import { createLocalEmbedder } from './backends/embedder-local/index.js';
import { createOpenAIEmbedder } from './backends/embedder-openai/index.js';
import { createNoneEmbedder } from './backends/embedder-none/index.js';
import { createTransformersEmbedder } from './backends/embedder-transformers/index.js';
import { createHttpReranker } from './backends/reranker-http/index.js';
import { join } from 'node:path';
import { createOpenAIChat } from './backends/llm-openai/index.js';
import { createAnthropic } from './backends/llm-anthropic/index.js';
import { createLlmClient, type LlmClient } from './core/llm/index.js';
import { HistoryLog, revertLast, type HistoryEntry, type RevertResult } from './core/history/index.js';
import { DistillScheduler, runDistill, type DistillOptions, type DistillReport } from './core/distill/index.js';
import { ConfigError } from './errors/index.js';
import type { ConversationIndexV1, ConversationSearchHit } from './spec/conversation.js';
import { openLanceConversationIndex } from './backends/conversation-lancedb/index.js';
import { agentScopes } from './core/scope.js';
import type { Caller } from './core/caller.js';
import { createCallerOperations, type CallerOperations } from './core/ops/index.js';
import { L0Log } from './capture/l0-log.js';
import { deleteAll, learn, type DeleteAllOptions, type LearnOptions, type LearnResult } from './learn.js';
import { createSummaryWorker, type SummaryRunReport, type SummaryWorker } from './core/summaries/index.js';
import { agentsOfMemories, autoOrganize, organizeScenes, type AutoOrganizeResult, type OrganizeOptions, type OrganizeReport } from './core/layers/index.js';

export interface StrataOpenOptions {
  /** Strata home; default `$STRATA_HOME`, else `~/.strata`. */
  home?: string;
  /** Deep-merged over `<home>/config.json` and the environment, then validated. */
  overrides?: StrataConfigOverrides;
  /** Inject a ready embedder (tests, custom providers) instead of the configured one. */
  embedder?: EmbedderV1;
  reranker?: RerankerV1;
  /** Inject an LLM (e.g. a host's own model) instead of the configured one; wrapped in the same client. */
  llm?: LlmV1;
  /** Used by `reembed`: open a store recorded with another embedder without failing. */
  allowEmbedderMismatch?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function createEmbedderFromConfig(config: StrataConfig, env: NodeJS.ProcessEnv = process.env, home?: string): EmbedderV1 {
  const e = config.embedder;
  switch (e.provider) {
    case 'none':
      return createNoneEmbedder();
    case 'openai':
      return createOpenAIEmbedder({
        baseURL: e.baseURL ?? 'https://api.openai.com/v1',
        model: e.model ?? 'text-embedding-3-small',
        apiKeyEnv: e.apiKeyEnv,
        dimensions: e.dimensions,
        sendDimensions: e.sendDimensions,
        taskHints: e.taskHints,
        batchSize: e.batchSize,
        timeoutMs: e.timeoutMs,
        env,
      });
    case 'local':
      return createLocalEmbedder();
    case 'transformers':
      return createTransformersEmbedder({
        model: e.model ?? 'Xenova/bge-small-en-v1.5',
        modelPath: e.modelPath,
        cacheDir: home ? join(home, 'models') : undefined,
        allowDownload: e.allowDownload,
        dtype: e.dtype,
        pooling: e.pooling,
        queryPrefix: e.queryPrefix,
        documentPrefix: e.documentPrefix,
        batchSize: e.batchSize,
      });
  }
}

export function createRerankerFromConfig(config: StrataConfig): RerankerV1 | undefined {
  const r = config.rerank;
  if (!r || r.provider === 'none') return undefined;
  return createHttpReranker({ provider: r.provider, baseURL: r.baseURL, model: r.model, apiKeyEnv: r.apiKeyEnv, timeoutMs: r.timeoutMs });
}

/**
 * The configured LLM (config `llm`, overridden by STRATA_LLM_PROVIDER / _BASE_URL / _MODEL /
 * _API_KEY_ENV), wrapped in the client that retries, limits concurrency and logs usage.
 * Undefined when none is configured: distillation then falls back to rule-based capture.
 */
export function createLlmFromConfig(options: { config: StrataConfig; home: string; env?: NodeJS.ProcessEnv }): LlmClient | undefined {
  const env = options.env ?? process.env;
  const cfg = options.config.llm;
  const provider = llmProviderOf({ config: options.config, env });
  if (provider === 'none') return undefined;
  const model = env.STRATA_LLM_MODEL?.trim() || cfg.model;
  if (!model) {
    throw new ConfigError({ field: 'llm.model', message: `The LLM provider is ${provider} but no model is set: set llm.model in config.json or STRATA_LLM_MODEL.` });
  }
  const common = {
    baseURL: env.STRATA_LLM_BASE_URL || cfg.baseURL,
    model,
    apiKeyEnv: env.STRATA_LLM_API_KEY_ENV || cfg.apiKeyEnv,
    timeoutMs: cfg.timeoutMs,
  };
  let llm;
  if (provider === 'openai') llm = createOpenAIChat({ ...common, jsonMode: cfg.jsonMode });
  else if (provider === 'anthropic') llm = createAnthropic(common);
  else throw new ConfigError({ field: 'llm.provider', message: `Unknown LLM provider ${JSON.stringify(provider)}: use openai (any OpenAI-compatible server), anthropic or none.` });
  return createLlmClient({ llm, usageLog: { home: options.home }, maxConcurrency: cfg.maxConcurrency, maxRetries: cfg.maxRetries, prices: cfg.prices });
}

export function createStoreFromConfig(loaded: LoadedConfig): MemoryStoreV1 {
  const s = loaded.config.store;
  return createLanceDbStore({
    path: s.path ?? join(loaded.home, 'store'),
    annThreshold: s.annThreshold,
    efSearch: s.efSearch,
    lockStaleMs: loaded.config.lock?.staleMs,
  });
}

/** The library entry point: `const strata = await Strata.open({ home })`. */
export class Strata extends MemoryEngine {
  readonly home: string;
  readonly config: StrataConfig;
  private conversationIndexPromise: Promise<ConversationIndexV1> | undefined;
  private llmClient: LlmClient | undefined | null = null;

  private constructor(ctx: EngineContext, loaded: LoadedConfig, private readonly injectedLlm?: LlmV1) {
    super(ctx, loaded.config.recall);
    this.home = loaded.home;
    this.config = loaded.config;
  }

  /** The LLM client (injected, else configured), created on first use; undefined when there is none. */
  llm(): LlmClient | undefined {
    if (this.llmClient === null) {
      const cfg = this.config.llm;
      this.llmClient = this.injectedLlm
        ? createLlmClient({ llm: this.injectedLlm, usageLog: { home: this.home }, maxConcurrency: cfg.maxConcurrency, maxRetries: cfg.maxRetries, prices: cfg.prices })
        : createLlmFromConfig({ config: this.config, home: this.home });
    }
    return this.llmClient;
  }

  /** One distillation run over the L0 log (LLM extraction, or rule-based capture without an LLM). */
  distill(options: Omit<DistillOptions, 'ctx' | 'home'> = {}): Promise<DistillReport> {
    const d = this.config.distill;
    return runDistill({
      ctx: this.ctx,
      home: this.home,
      history: this.ctx.history,
      llm: this.llm(),
      budget: d.budget,
      caps: d.caps,
      chunkTokens: d.chunkTokens,
      minConfidence: d.minConfidence,
      ruleScope: d.ruleScope,
      ...options,
    });
  }

  /**
   * The background distiller used by `strata watch` and the hosts: runs after N new messages or
   * an idle timeout, under the distill lock (another process already distilling = skip a tick).
   * With `onOrganize`, each run is followed by `organizeIfDue` (inside the run, so `stop()` also
   * waits for an organiser run in progress; abort `organizeSignal` first to cut it short) and
   * every attempt is handed to `onOrganize`.
   */
  createDistillScheduler(
    options: { onReport?: (r: DistillReport) => void; onError?: (e: unknown) => void; onOrganize?: (r: AutoOrganizeResult) => void; organizeSignal?: AbortSignal } = {},
  ): DistillScheduler {
    const { onOrganize, organizeSignal, ...callbacks } = options;
    const s = this.config.distill.scheduler;
    return new DistillScheduler({
      home: this.home,
      run: async () => {
        const report = await this.distill({ lockTimeoutMs: 0 });
        if (onOrganize && !organizeSignal?.aborted) await this.organizeIfDue({ report, onResult: onOrganize, abortSignal: organizeSignal });
        return report;
      },
      everyMessages: s.everyMessages,
      idleMs: s.idleMs,
      pollMs: s.pollMs,
      ...callbacks,
    });
  }

  /**
   * The periodic hierarchical-summaries worker (config `summaries`), for long-running hosts
   * (`strata watch`, the OpenClaw service). Undefined without an LLM. Sessions another process is
   * summarising are skipped for that tick, never waited for.
   */
  createSummaryWorker(options: { onReport?: (r: SummaryRunReport) => void; onError?: (e: unknown) => void } = {}): SummaryWorker | undefined {
    const llm = this.llm();
    if (!llm) return undefined;
    return createSummaryWorker({ home: this.home, llm, config: this.config.summaries, ...options });
  }

  /** Organiser options for one agent from config `layers` (scopes: the agent's, with its grants). */
  private organizeOptions(agentId: string, llm: LlmClient): OrganizeOptions {
    const { scenes, persona } = this.config.layers;
    return {
      home: this.home,
      agentId,
      llm,
      memories: this,
      scopes: agentScopes(agentId, this.config.scopes.agentGrants[agentId] ?? []),
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
  organize(options: { agentId: string; maxScenes?: number; maxMemoriesPerRun?: number; lockTimeoutMs?: number; abortSignal?: AbortSignal }): Promise<OrganizeReport> {
    const llm = this.llm();
    if (!llm) {
      throw new ConfigError({ field: 'llm.provider', message: 'Organising scenes needs an LLM: set llm.provider and llm.model in config.json (or STRATA_LLM_PROVIDER / STRATA_LLM_MODEL).' });
    }
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    return organizeScenes({ ...this.organizeOptions(options.agentId, llm), ...given });
  }

  /**
   * After a distillation: runs the organiser of each agent the run stored memories for (or of
   * `agentIds`) when it is due by config `layers.organizer`. Does nothing when `auto` is off or no
   * LLM is configured. Never throws: failures come back as results (and through `onResult`).
   */
  async organizeIfDue(options: { report?: DistillReport; agentIds?: string[]; onResult?: (r: AutoOrganizeResult) => void; abortSignal?: AbortSignal } = {}): Promise<AutoOrganizeResult[]> {
    const auto = this.config.layers.organizer;
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
    let llm: LlmClient | undefined;
    try {
      agents = options.agentIds ?? (await this.agentsStoredBy(options.report));
      llm = agents.length > 0 ? this.llm() : undefined;
    } catch (error) {
      emit({ agentId: options.agentIds?.join(',') ?? '*', status: 'failed', error });
      return results;
    }
    if (!llm) return results;
    for (const agentId of agents) {
      if (options.abortSignal?.aborted) break;
      emit(await autoOrganize({ ...this.organizeOptions(agentId, llm), everyMemories: auto.everyMemories, minIntervalMs: auto.minIntervalMs, abortSignal: options.abortSignal }));
    }
    return results;
  }

  /** Agents whose memories a distill run created or changed. */
  private async agentsStoredBy(report: DistillReport | undefined): Promise<string[]> {
    const ids = [...new Set((report?.changes ?? []).filter((c) => c.kind !== 'skip' && c.id).map((c) => c.id!))];
    if (ids.length === 0) return [];
    return agentsOfMemories(await this.ctx.store.get({ ids }));
  }

  /** Every logged change of one memory, oldest first. */
  history(options: { id: string }): Promise<HistoryEntry[]> {
    return this.ctx.history!.historyOf(options);
  }

  /** Undoes the last logged change of a memory (and records the revert); `accept` may refuse that change. */
  revert(options: { id: string; actor?: string; reason?: string; accept?: (entry: HistoryEntry) => boolean }): Promise<RevertResult> {
    return revertLast({ ctx: this.ctx, history: this.ctx.history!, ...options });
  }

  /** The searchable copy of the L0 conversation log (opened on first use). */
  conversationIndex(): Promise<ConversationIndexV1> {
    const embedder = this.ctx.embeddings.embedder;
    this.conversationIndexPromise ??= openLanceConversationIndex({
      dir: join(this.home, 'conversations', 'index'),
      embedder: this.ctx.dimensions > 0 ? embedder : undefined,
    });
    return this.conversationIndexPromise;
  }

  /**
   * Conversation search; `agentIds` undefined searches every agent (owner mode: the operations
   * layer decides), an empty list finds nothing. Compaction and branch summaries (role `summary`)
   * restate the session in the summariser's words, so they are left out unless `includeSummaries`
   * (contract 5).
   */
  async searchConversations(options: { query: string; limit?: number; agentIds?: string[]; sessionKey?: string; includeSummaries?: boolean; abortSignal?: AbortSignal }): Promise<ConversationSearchHit[]> {
    const { agentIds, includeSummaries, ...rest } = options;
    const limit = options.limit ?? 10;
    if (agentIds?.length === 0) return [];
    const index = await this.conversationIndex();
    // Summaries are rare (one per compaction), so a few extra hits make up for the ones left out.
    const fetch = includeSummaries ? limit : limit + 5;
    const hits = agentIds === undefined
      ? await index.search({ ...rest, limit: fetch })
      // The index filters by one agent: ask per agent and keep the best overall.
      : (await Promise.all(agentIds.map((agentId) => index.search({ ...rest, limit: fetch, agentId })))).flat().sort((a, b) => b.score - a.score);
    return (includeSummaries ? hits : hits.filter((h) => h.record.role !== 'summary')).slice(0, limit);
  }

  /** Records a conversation and distils it into memories in one call (see src/learn.ts). */
  learn(options: LearnOptions): Promise<LearnResult> {
    return learn(this, options);
  }

  /** Deletes memories by scope, category and date (all scopes unless `scopes` narrows it). */
  deleteAll(options: DeleteAllOptions = {}): Promise<{ matched: number; deleted: number; ids: string[] }> {
    return deleteAll(this, options);
  }

  /** This engine as seen by one caller: every host operation, validated and limited to its scopes. */
  as(caller: Caller, options: { actor?: string } = {}): CallerOperations {
    return createCallerOperations({ engine: this, caller, actor: options.actor ?? 'api', l0Records: () => new L0Log({ home: this.home }).records() });
  }

  override async close(): Promise<void> {
    const index = this.conversationIndexPromise;
    this.conversationIndexPromise = undefined;
    if (index) await (await index).close();
    await super.close();
  }

  static async open(options: StrataOpenOptions = {}): Promise<Strata> {
    const loaded = await loadConfig({ home: options.home, overrides: options.overrides, env: options.env });
    const embedder = options.embedder ?? createEmbedderFromConfig(loaded.config, options.env, loaded.home);
    // A remote embedder with no configured length learns it from one probe call.
    const dimensions = 'resolveDimensions' in embedder && typeof embedder.resolveDimensions === 'function'
      ? await (embedder.resolveDimensions as () => Promise<number>)()
      : embedder.dimensions;
    const store = createStoreFromConfig(loaded);
    const ctx: EngineContext = {
      store,
      embeddings: createEmbeddingService({ embedder }),
      embedderId: embedder.id,
      dimensions,
      reranker: options.reranker ?? createRerankerFromConfig(loaded.config),
      write: {
        redactSecrets: loaded.config.write.redactSecrets,
        maxChars: loaded.config.write.maxChars,
        nearDuplicateThreshold: loaded.config.write.nearDuplicateThreshold,
      },
      history: new HistoryLog({ home: loaded.home, redact: loaded.config.write.redactSecrets }),
      now: () => new Date(),
    };
    if (!options.allowEmbedderMismatch) {
      try {
        await MemoryEngine.checkEmbedder(ctx);
      } catch (error) {
        await store.close().catch(() => undefined);
        throw error;
      }
    }
    return new Strata(ctx, loaded, options.llm);
  }
}
