/**
 * One Strata engine per home per process. OpenClaw calls `register()` several times in one process
 * (the gateway: `full` then `discovery`; `agent --local`: one `full` and several `discovery`) and runs
 * hooks, tools and services from whichever registration its registries hold, so an engine opened by
 * one registration must be the one every other registration uses: engines live in a process-wide
 * map on `globalThis` (it survives this module being loaded twice), keyed by the resolved home.
 *
 * The engine module (LanceDB, the embedder) is imported only when a handler first needs it, so a
 * discovery, setup or CLI-metadata load never pays for it.
 */
import type { DistillReport } from '../../core/distill/index.js';
import type { BackgroundWorker } from '../../core/worker/background-worker.js';
import type { AutoOrganizeResult } from '../../core/layers/auto-organize.js';
import type { StrataConfigOverrides } from '../../config/load.js';
import { StrataError } from '../../errors/index.js';
import type { LlmV1 } from '../../spec/llm.js';
import type { AgentRunner } from '../../core/layers/agent-loop.js';
import type { Strata } from '../../strata.js';
import type { OpenClawLogger } from './types.js';

export interface SharedEngineOptions {
  /** Absolute Strata home (the registry key). */
  home: string;
  overrides: StrataConfigOverrides;
  /** The host's model, used when Strata's config names no LLM of its own. */
  hostLlm?: () => LlmV1 | undefined;
  /** With the host's model: the host's agent runtime for the scene organiser's tool loop. */
  hostOrganiserRunner?: () => AgentRunner | undefined;
  /** Extra `Strata.open` options (tests: an injected embedder). */
  openOptions?: Record<string, unknown>;
  log: OpenClawLogger;
}

export function messageOf(error: unknown): string {
  return StrataError.isInstance(error) ? `[${error.code}] ${error.message}` : ((error as Error)?.message ?? String(error));
}

const REGISTRY = Symbol.for('strata.openclaw.engines.v1');

function registry(): Map<string, SharedEngine> {
  const holder = globalThis as { [REGISTRY]?: Map<string, SharedEngine> };
  return (holder[REGISTRY] ??= new Map());
}

/** The process's engine for `options.home`, created on first request (no I/O until used). */
export function sharedEngine(options: SharedEngineOptions): SharedEngine {
  const engines = registry();
  let engine = engines.get(options.home);
  if (!engine) {
    engine = new SharedEngine(options);
    engines.set(options.home, engine);
  }
  return engine;
}

/** Number of engines open in this process (tests). */
export function sharedEngineCount(): number {
  return registry().size;
}

export class SharedEngine {
  private opening: Promise<Strata> | undefined;
  private warming: Promise<void> | undefined;
  private worker: BackgroundWorker | undefined;
  private distilling: Promise<void> | undefined;
  private stopping = new AbortController();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: SharedEngineOptions) {}

  get home(): string {
    return this.options.home;
  }

  /** The open engine (opened on first call; a failed open is retried by the next call). */
  strata(): Promise<Strata> {
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private async open(): Promise<Strata> {
    const [{ Strata }, { loadConfig }, { llmProviderOf }] = await Promise.all([
      import('../../strata.js'),
      import('../../config/load.js'),
      import('../../config/schema.js'),
    ]);
    const { home, overrides } = this.options;
    // Strata's own llm wins; otherwise the model OpenClaw runs on does the distillation.
    const loaded = await loadConfig({ home, overrides });
    const llm = llmProviderOf({ config: loaded.config }) === 'none' ? this.options.hostLlm?.() : undefined;
    const organiserRunner = llm ? this.options.hostOrganiserRunner?.() : undefined;
    return Strata.open({
      ...this.options.openOptions,
      home,
      overrides,
      ...(llm ? { llm } : {}),
      ...(organiserRunner ? { organiserRunner } : {}),
    });
  }

  /**
   * Opens the store and loads the embedder with one recall in an empty scope (no memory's access
   * statistics change), so the first turn's recall runs warm. Never rejects.
   */
  warm(): Promise<void> {
    this.warming ??= (async () => {
      const started = Date.now();
      try {
        const s = await this.strata();
        await s.recall({ query: 'warm-up', scopes: ['custom:strata-warm-up'], limit: 1 });
        this.options.log.debug?.(`strata: engine warm in ${Date.now() - started} ms (${this.home})`);
      } catch (error) {
        this.warming = undefined; // the next turn tries again
        this.options.log.warn(`strata: warming the memory engine failed: ${messageOf(error)}`);
      }
    })();
    return this.warming;
  }

  /**
   * The background worker (the OpenClaw service); idempotent. Conversation indexing and embedding
   * always run; distillation, the organiser and summaries when `distill`. Captures through this
   * engine's Strata notify the worker themselves.
   */
  async startWorkers(options: { distill: boolean; onOrganize: (r: AutoOrganizeResult) => void }): Promise<void> {
    if (this.worker) return;
    const s = await this.strata();
    if (this.worker) return;
    const log = this.options.log;
    this.worker = s.createWorker({
      distill: options.distill,
      onOrganize: options.onOrganize,
      onEvent: (e) => {
        if ('error' in e) log.warn(`strata: background ${e.task} failed: ${messageOf(e.error)}`);
        else if (e.task === 'distill') logReport(log, e.report);
        else if (e.task === 'summaries' && e.report.chunksSummarised > 0)
          log.info(`strata: summarised ${e.report.chunksSummarised} conversation chunks`);
      },
    });
    this.worker.start();
  }

  /** One distillation now, in the background, unless one is already running in this process. */
  distillSoon(onOrganize: (r: AutoOrganizeResult) => void): void {
    if (this.distilling) return;
    const log = this.options.log;
    const run = this.strata()
      .then(async (s) => {
        const report = await s.distill({ lockTimeoutMs: 0 });
        logReport(log, report);
        await s.organizeIfDue({ report, onResult: onOrganize, abortSignal: this.stopping.signal });
      })
      .catch((error: unknown) => {
        // Another process holds the distill lock: it is doing this work already.
        if (!(StrataError.isInstance(error) && error.code === 'STORE_LOCKED')) log.warn(`strata: distillation failed: ${messageOf(error)}`);
      })
      .finally(() => {
        this.distilling = undefined;
        this.pending.delete(run);
      });
    this.distilling = run;
    this.pending.add(run);
  }

  /** Keeps a background promise from being lost when the engine stops. */
  track(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Stops the workers, waits for background work and closes the engine; the next use reopens it. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.worker?.stop(); // aborts an organiser run in progress (its scenes are restored)
    this.worker = undefined;
    await Promise.allSettled([...this.pending]);
    this.stopping = new AbortController();
    const open = this.opening;
    this.opening = undefined;
    this.warming = undefined;
    if (registry().get(this.home) === this) registry().delete(this.home);
    if (open) await (await open.catch(() => undefined))?.close();
  }
}

function logReport(log: OpenClawLogger, r: DistillReport): void {
  log.info(`strata: distilled ${r.messages.distilled} messages into ${r.admitted} memories`);
}
