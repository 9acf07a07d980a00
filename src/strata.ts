/**
 * The library entry point: `const strata = await Strata.open({ home })`. A facade over the memory
 * engine (recall, remember, ...) plus the operations every host shares: capture (L0 log and
 * conversation index in one pipeline), conversation search, distillation, the organiser,
 * summaries, the journal and the background worker. Wiring lives in src/wiring.
 */
import type { LoadedConfig } from './config/load.js';
import type { StrataConfig } from './config/schema.js';
import { CapturePipeline, type PipelineCaptureOptions, type PipelineIngestOptions, type PipelineWatchOptions } from './capture/pipeline.js';
import { readTranscriptForJournal } from './capture/journal-source.js';
import type { SourceKind } from './capture/readers/index.js';
import {
  ConversationIndexer,
  searchConversationIndex,
  type CatchUpOptions,
  type CatchUpResult,
  type ConversationIndexStatus,
  type SearchConversationsOptions,
} from './core/conversations/index.js';
import { DistillScheduler, runDistill, type DistillOptions, type DistillReport } from './core/distill/index.js';
import { MemoryEngine } from './core/engine/memory-engine.js';
import { revertLast, type HistoryEntry, type RevertResult } from './core/history/index.js';
import {
  compileJournal,
  flushJournal,
  lintJournal,
  type CompileJournalResult,
  type FlushJournalResult,
  type LintJournalResult,
} from './core/journal/index.js';
import { LayerService } from './core/layers/service.js';
import type { AutoOrganizeResult, OrganizeReport } from './core/layers/index.js';
import type { LlmClient } from './core/llm/index.js';
import { createSummaryWorker, runSummaries, type SummaryRunReport, type SummaryWorker } from './core/summaries/index.js';
import type { BackgroundWorker } from './core/worker/background-worker.js';
import { ConfigError } from './errors/index.js';
import type { ConversationSearchHit, L0Record } from './spec/conversation.js';
import type { ConversationIndexV2 } from './spec/conversation-index.js';
import type { L0LogV1, L0SessionInfo } from './spec/l0-log.js';
import type { JournalStoreV1 } from './spec/journal-store.js';
import type { SummaryStoreV1 } from './spec/summary-store.js';
import type { LayerStoreV1 } from './spec/layer-store.js';
import type { UsageLogV1 } from './spec/usage-log.js';
import { openParts, type OpenedParts, type StrataOpenOptions } from './wiring/open.js';
import { buildWorker, type CreateWorkerOptions } from './wiring/worker.js';

import type { Caller } from './core/caller.js';
import { createCallerOperations, type CallerOperations } from './core/ops/index.js';
import { deleteAll, learn, type DeleteAllOptions, type LearnOptions, type LearnResult } from './learn.js';

export type { StrataOpenOptions } from './wiring/open.js';
export type { CreateWorkerOptions } from './wiring/worker.js';

export class Strata extends MemoryEngine {
  readonly home: string;
  readonly config: StrataConfig;
  /** The L0 conversation log. */
  readonly l0: L0LogV1;
  /** Where hierarchical summaries are kept (the context bootstrap reads them there). */
  readonly summaryStore: SummaryStoreV1;
  /** Where the daily journal is kept (files under the home, or the shared database). */
  readonly journalStore: JournalStoreV1;
  /** Where LLM calls are logged (`strata usage` reads it). */
  readonly usageLog: UsageLogV1;
  /** Where scenes, persona and the organiser checkpoint are kept (the organiser, context and layer operations use it). */
  readonly layerStore: LayerStoreV1;
  private readonly parts: OpenedParts;
  private readonly layers: LayerService;
  private readonly capturePipeline: CapturePipeline;
  private indexerPromise: Promise<ConversationIndexer> | undefined;
  /** Workers started by this instance: captures notify them, `close` stops them. */
  private readonly workers = new Set<BackgroundWorker>();

  private constructor(parts: OpenedParts) {
    super(parts.ctx, parts.loaded.config.recall);
    this.parts = parts;
    this.home = parts.loaded.home;
    this.config = parts.loaded.config;
    this.l0 = parts.ctx.l0;
    this.summaryStore = parts.summaryStore;
    this.journalStore = parts.journalStore;
    this.usageLog = parts.usageLog;
    this.layerStore = parts.layerStore;
    this.layers = new LayerService({
      home: this.home,
      layers: this.config.layers,
      agentGrants: this.config.scopes.agentGrants,
      llm: parts.llm,
      ...(parts.organiserRunner ? { organiserRunner: parts.organiserRunner } : {}),
      memories: this,
      store: parts.ctx.store,
      layerStore: parts.layerStore,
    });
    this.capturePipeline = new CapturePipeline({
      home: this.home,
      l0: this.l0,
      indexer: () => this.indexer(),
      onNewMessages: (messages) => {
        for (const w of this.workers) w.notify({ messages });
      },
    });
  }

  static async open(options: StrataOpenOptions = {}): Promise<Strata> {
    return new Strata(await openParts(options));
  }

  /** The loaded configuration with where it came from. */
  get loadedConfig(): LoadedConfig {
    return this.parts.loaded;
  }

  /** The configured LLM client; undefined when none is configured. */
  llm(): LlmClient | undefined {
    return this.parts.llm;
  }

  // --- capture: the L0 log and the conversation index, in one pipeline --------------------------

  /** Reads new transcript lines (incremental, exactly once) into the L0 log and indexes them. */
  ingest(options: PipelineIngestOptions = {}): ReturnType<CapturePipeline['ingest']> {
    return this.capturePipeline.ingest(options);
  }

  /** Records what is new in a live session snapshot (OpenClaw `agent_end`, a custom agent's turn hook). */
  capture(options: PipelineCaptureOptions): ReturnType<CapturePipeline['capture']> {
    return this.capturePipeline.capture(options);
  }

  /** Appends ready L0 records (already cleaned) and indexes them. */
  appendConversation(options: { records: L0Record[]; abortSignal?: AbortSignal }): ReturnType<CapturePipeline['append']> {
    return this.capturePipeline.append(options);
  }

  /** Ingests continuously until `abortSignal` fires (`strata watch`). */
  watch(options: PipelineWatchOptions): ReturnType<CapturePipeline['watch']> {
    return this.capturePipeline.watch(options);
  }

  /** The searchable copy of the L0 log (storage), opened on first use. */
  conversationIndex(): Promise<ConversationIndexV2> {
    return this.parts.conversationIndex();
  }

  private indexer(): Promise<ConversationIndexer> {
    this.indexerPromise ??= this.conversationIndex().then(
      (index) =>
        new ConversationIndexer({
          l0: this.l0,
          index,
          embedderId: this.ctx.embedderId,
          dimensions: this.ctx.dimensions,
          buildDocument: this.parts.buildTurnDocument,
        }),
      (error: unknown) => {
        this.indexerPromise = undefined;
        throw error;
      },
    );
    return this.indexerPromise;
  }

  /** Brings the conversation index up to the L0 log (`fromStart`: re-checks every entry, the repair). */
  async indexConversations(options: CatchUpOptions = {}): Promise<CatchUpResult> {
    return (await this.indexer()).catchUp(options);
  }

  /** Brings the conversation index's search structures up to date when enough was written since (`force`: always). */
  async optimizeConversations(options: { force?: boolean } = {}): Promise<boolean> {
    return (await this.indexer()).optimize(options);
  }

  /** How far the conversation index is behind the log; `verify` checks every entry (`strata doctor`). */
  async conversationIndexStatus(options: { verify?: boolean; abortSignal?: AbortSignal } = {}): Promise<ConversationIndexStatus> {
    return (await this.indexer()).status(options);
  }

  /** Embeds conversation documents that have no vector yet (background work). */
  async embedConversations(
    options: { batchSize?: number; budgetMs?: number; abortSignal?: AbortSignal } = {},
  ): Promise<{ embedded: number; remaining: number }> {
    return (await this.indexer()).embedPending({ ...options, embeddings: this.ctx.embeddings });
  }

  /**
   * Searches captured conversation turns: full text plus vectors, fused like memory recall.
   * `agentIds` undefined = every agent (owner reads; the operations layer decides who may).
   * An empty `agentIds` finds nothing. Compaction and branch summaries (role `summary`) restate the
   * session in the summariser's words, so they are left out unless `includeSummaries` (or `roles`)
   * asks for them (contract 5).
   */
  async searchConversations(
    options: SearchConversationsOptions & { /** @deprecated use `agentIds` */ agentId?: string },
  ): Promise<ConversationSearchHit[]> {
    const { agentId, ...rest } = options;
    const agentIds = rest.agentIds ?? (agentId !== undefined ? [agentId] : undefined);
    if (agentIds?.length === 0) return [];
    const embeddings = this.ctx.embeddings;
    const indexer = await this.indexer();
    await indexer.rebuildIfStale({ abortSignal: rest.abortSignal });
    return searchConversationIndex({
      ...rest,
      agentIds,
      index: indexer.index,
      embedQuery: embeddings.producesVectors ? (o) => embeddings.embedQuery(o) : undefined,
      config: this.config.recall,
    });
  }

  /** Sessions in the L0 log, most recently active first. */
  sessions(options: { agentId?: string; host?: L0SessionInfo['host']; abortSignal?: AbortSignal } = {}): Promise<L0SessionInfo[]> {
    return this.l0.sessions(options);
  }

  /** Every message of one session, in log order (the inspector's session view). */
  async sessionMessages(options: { agentId: string; sessionKey: string; abortSignal?: AbortSignal }): Promise<L0Record[]> {
    return (await this.l0.readSession(options)).map((e) => e.record);
  }

  /** Messages of the L0 log by entry id (a memory's provenance), within one agent / session when given. */
  async conversationMessages(options: {
    ids: string[];
    agentId?: string;
    sessionKey?: string;
    limit?: number;
    abortSignal?: AbortSignal;
  }): Promise<L0Record[]> {
    const wanted = new Set(options.ids);
    if (wanted.size === 0) return [];
    const seen = new Set<string>();
    const out: L0Record[] = [];
    for (const { record } of await this.l0.readSession({
      agentId: options.agentId,
      sessionKey: options.sessionKey,
      abortSignal: options.abortSignal,
    })) {
      if (!wanted.has(record.id) || seen.has(record.id)) continue;
      seen.add(record.id);
      out.push(record);
      if (out.length >= (options.limit ?? 200)) break;
    }
    return out;
  }

  // --- background work ---------------------------------------------------------------------------

  /** One distillation run over the L0 log (LLM extraction, or rule-based capture without an LLM). */
  distill(options: Omit<DistillOptions, 'ctx' | 'home'> = {}): Promise<DistillReport> {
    const d = this.config.distill;
    return runDistill({
      ctx: this.ctx,
      home: this.home,
      progress: this.parts.distillProgress,
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
   * The background distiller: runs after N new messages or an idle timeout, under the distill
   * lock (another process already distilling = skip a tick). With `onOrganize`, each run is
   * followed by `organizeIfDue` (inside the run, so `stop()` also waits for it).
   */
  createDistillScheduler(
    options: {
      onReport?: (r: DistillReport) => void;
      onError?: (e: unknown) => void;
      onOrganize?: (r: AutoOrganizeResult) => void;
      organizeSignal?: AbortSignal;
    } = {},
  ): DistillScheduler {
    const { onOrganize, organizeSignal, ...callbacks } = options;
    const s = this.config.distill.scheduler;
    return new DistillScheduler({
      home: this.home,
      log: this.l0,
      progress: this.parts.distillProgress,
      run: () => this.distillAndOrganize({ onOrganize, organizeSignal }),
      everyMessages: s.everyMessages,
      idleMs: s.idleMs,
      pollMs: s.pollMs,
      ...callbacks,
    });
  }

  private async distillAndOrganize(options: {
    onOrganize?: (r: AutoOrganizeResult) => void;
    organizeSignal?: AbortSignal;
  }): Promise<DistillReport> {
    const report = await this.distill({ lockTimeoutMs: 0 });
    if (options.onOrganize && !options.organizeSignal?.aborted) {
      await this.organizeIfDue({ report, onResult: options.onOrganize, abortSignal: options.organizeSignal });
    }
    return report;
  }

  /** The periodic hierarchical-summaries worker (config `summaries`); undefined without an LLM. */
  createSummaryWorker(
    options: { onReport?: (r: SummaryRunReport) => void; onError?: (e: unknown) => void } = {},
  ): SummaryWorker | undefined {
    const llm = this.llm();
    if (!llm) return undefined;
    return createSummaryWorker({ home: this.home, store: this.summaryStore, l0: this.l0, llm, config: this.config.summaries, ...options });
  }

  /**
   * The background worker of a host process: conversation indexing and embedding, distillation
   * with the organiser, summaries (with an LLM) and journal entries on request. Captures through
   * this instance notify it. `start()` runs it until `stop()`; `runOnce()` does one pass.
   */
  createWorker(options: CreateWorkerOptions = {}): BackgroundWorker {
    const worker = buildWorker(this, options, (w) => this.workers.delete(w));
    this.workers.add(worker);
    return worker;
  }

  /** One hierarchical summaries pass (`strata summarize`). */
  summarize(
    options: { agentId?: string; sessionKey?: string; dryRun?: boolean; lockTimeoutMs?: number; abortSignal?: AbortSignal } = {},
  ): Promise<SummaryRunReport> {
    const llm = options.dryRun ? undefined : this.requireLlm('strata summarize');
    return runSummaries({ home: this.home, store: this.summaryStore, l0: this.l0, llm, config: this.config.summaries, ...options });
  }

  /** A journal entry for what a session said since its last flush (from a host transcript, else the L0 log). */
  async flushJournal(options: {
    sessionId: string;
    agentId?: string;
    transcriptPath?: string;
    format?: SourceKind;
    now?: () => Date;
    abortSignal?: AbortSignal;
  }): Promise<FlushJournalResult> {
    const llm = this.requireLlm('strata journal flush');
    const { transcriptPath, format, ...rest } = options;
    const messages = transcriptPath
      ? (
          await readTranscriptForJournal({
            path: transcriptPath,
            sessionId: options.sessionId,
            agentId: options.agentId,
            format,
            abortSignal: options.abortSignal,
          })
        ).messages
      : undefined;
    return flushJournal({
      ...rest,
      home: this.home,
      store: this.journalStore,
      llm,
      l0: this.l0,
      messages,
      config: { ...this.config.journal, timeZone: this.config.timezone },
    });
  }

  compileJournal(options: { force?: boolean; abortSignal?: AbortSignal } = {}): Promise<CompileJournalResult> {
    return compileJournal({
      home: this.home,
      store: this.journalStore,
      llm: this.requireLlm('strata journal compile'),
      config: this.config.journal,
      ...options,
    });
  }

  lintJournal(): Promise<LintJournalResult> {
    return lintJournal({ home: this.home, store: this.journalStore });
  }

  private requireLlm(what: string): LlmClient {
    const llm = this.llm();
    if (!llm) {
      throw new ConfigError({
        field: 'llm.provider',
        message: `${what} needs an LLM: set llm.provider and llm.model in config.json (or STRATA_LLM_PROVIDER / STRATA_LLM_MODEL).`,
      });
    }
    return llm;
  }

  /** One organiser run for an agent with the configured limits (`strata organize`); needs a tool-capable LLM. */
  organize(options: {
    agentId: string;
    maxScenes?: number;
    maxMemoriesPerRun?: number;
    lockTimeoutMs?: number;
    abortSignal?: AbortSignal;
  }): Promise<OrganizeReport> {
    return this.layers.organize(options);
  }

  /** After a distillation: the organiser of each agent it stored memories for, when due (never throws). */
  organizeIfDue(options: Parameters<LayerService['organizeIfDue']>[0] = {}): Promise<AutoOrganizeResult[]> {
    return this.layers.organizeIfDue(options);
  }

  // --- history ---------------------------------------------------------------------------------

  /** Every logged change of one memory, oldest first. */
  history(options: { id: string }): Promise<HistoryEntry[]> {
    return this.ctx.history!.historyOf(options);
  }

  /** Undoes the last logged change of a memory (and records the revert); `accept` may refuse that change. */
  revert(options: { id: string; actor?: string; reason?: string; accept?: (entry: HistoryEntry) => boolean }): Promise<RevertResult> {
    return revertLast({ ctx: this.ctx, history: this.ctx.history!, ...options });
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
    return createCallerOperations({ engine: this, caller, actor: options.actor ?? 'api', l0Records: () => this.l0Records() });
  }

  /** Every record of the L0 log, oldest first, read page by page. */
  private async *l0Records(): AsyncIterable<L0Record> {
    let after: string | undefined;
    for (;;) {
      const page = await this.l0.read({ after });
      for (const entry of page.entries) yield entry.record;
      if (page.done || page.end === undefined || page.end === after) return;
      after = page.end;
    }
  }

  override async close(): Promise<void> {
    await Promise.allSettled([...this.workers].map((w) => w.stop()));
    await (await this.parts.openedConversationIndex())?.close();
    await this.l0.close();
    await this.ctx.history?.storage.close();
    await this.parts.distillProgress.close();
    await this.parts.summaryStore.close();
    await this.parts.journalStore.close();
    await this.parts.usageLog.close();
    await this.parts.layerStore.close();
    await super.close();
  }
}
