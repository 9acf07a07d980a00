/**
 * The one background worker every long-running or detached host uses (`strata watch`, the
 * OpenClaw service, the process a Claude Code hook starts): it keeps the conversation index
 * caught up and embedded, distils new conversation (and runs the organiser when due), builds
 * hierarchical summaries and writes journal entries. Each task runs at most once at a time; a
 * failing task is reported and retried later, never stopping the others.
 */
import type { DistillReport } from '../distill/run.js';
import type { DistillScheduler } from '../distill/scheduler.js';
import type { FlushJournalResult } from '../journal/flush.js';
import type { SummaryRunReport } from '../summaries/run.js';
import type { SummaryWorker } from '../summaries/worker.js';

export interface JournalFlushRequest {
  sessionId: string;
  agentId?: string;
  /** A host transcript to read the session from (else the L0 log). */
  transcriptPath?: string;
}

export type WorkerEvent =
  | { task: 'conversations'; indexed: number; embedded: number; remaining: number }
  | { task: 'distill'; report: DistillReport }
  | { task: 'summaries'; report: SummaryRunReport }
  | { task: 'journal'; result: FlushJournalResult }
  | { task: 'conversations' | 'distill' | 'summaries' | 'journal'; error: unknown };

export interface BackgroundWorkerOptions {
  /** Index catch-up and vector embedding of the conversation index. */
  conversations?: {
    catchUp: (signal: AbortSignal) => Promise<{ read: number }>;
    embed: (signal: AbortSignal) => Promise<{ embedded: number; remaining: number }>;
    /** Default 5 s. */
    intervalMs?: number;
  };
  /** Distillation (with the organiser after each run); its own timer decides when. */
  distill?: { scheduler: DistillScheduler; runOnce: () => Promise<DistillReport> };
  summaries?: SummaryWorker;
  journal?: { flush: (request: JournalFlushRequest, signal: AbortSignal) => Promise<FlushJournalResult> };
  onEvent?: (event: WorkerEvent) => void;
  /** Called first thing in `stop()`. */
  onStop?: () => void;
}

export interface WorkerRunReport {
  conversations?: { indexed: number; embedded: number; remaining: number };
  distill?: DistillReport;
  summaries?: SummaryRunReport;
  journal: FlushJournalResult[];
  errors: Array<{ task: string; error: unknown }>;
}

export class BackgroundWorker {
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private conversationsRun: Promise<void> | undefined;
  private journalQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: BackgroundWorkerOptions) {}

  /** Starts every configured task's timer. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.distill?.scheduler.start();
    this.options.summaries?.start();
    if (this.options.conversations) this.scheduleConversations(0);
  }

  /** Stops the timers, aborts work in flight (an organiser run restores its scenes) and waits for it. */
  async stop(): Promise<void> {
    this.options.onStop?.();
    this.started = false;
    clearTimeout(this.timer);
    this.stopping.abort();
    await Promise.all([this.options.distill?.scheduler.stop(), this.options.summaries?.stop()]);
    await Promise.allSettled([this.conversationsRun, this.journalQueue]);
  }

  /** Hosts call this after capturing messages: distillation counts them, indexing starts soon. */
  notify(options: { messages: number }): void {
    if (options.messages <= 0) return;
    this.options.distill?.scheduler.notify(options);
    if (this.started && this.options.conversations) this.scheduleConversations(0);
  }

  /** Queues a journal entry for a session (flushes run one at a time). */
  requestJournalFlush(request: JournalFlushRequest): Promise<FlushJournalResult | undefined> {
    const journal = this.options.journal;
    if (!journal) return Promise.resolve(undefined);
    const run = this.journalQueue.then(async () => {
      try {
        const result = await journal.flush(request, this.stopping.signal);
        this.emit({ task: 'journal', result });
        return result;
      } catch (error) {
        this.emit({ task: 'journal', error });
        return undefined;
      }
    });
    this.journalQueue = run;
    return run;
  }

  /** One pass of every task, then return (a detached hook process: do the work and exit). */
  async runOnce(options: { journal?: JournalFlushRequest[] } = {}): Promise<WorkerRunReport> {
    const report: WorkerRunReport = { journal: [], errors: [] };
    const attempt = async <T>(task: string, fn: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await fn();
      } catch (error) {
        report.errors.push({ task, error });
        this.emit({ task: task as 'distill', error });
        return undefined;
      }
    };
    const signal = this.stopping.signal;
    const c = this.options.conversations;
    if (c) {
      const indexed = await attempt('conversations', () => c.catchUp(signal));
      const embedded = await attempt('conversations', () => c.embed(signal));
      report.conversations = { indexed: indexed?.read ?? 0, embedded: embedded?.embedded ?? 0, remaining: embedded?.remaining ?? 0 };
    }
    for (const request of options.journal ?? []) {
      const result = await this.requestJournalFlush(request);
      if (result) report.journal.push(result);
    }
    const d = this.options.distill;
    if (d) report.distill = await attempt('distill', () => d.runOnce());
    const s = this.options.summaries;
    if (s) report.summaries = await attempt('summaries', () => s.runOnce());
    return report;
  }

  private scheduleConversations(delayMs: number): void {
    const c = this.options.conversations;
    if (!c || !this.started) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.conversationsRun) return this.scheduleConversations(c.intervalMs ?? 5_000);
      this.conversationsRun = this.conversationsPass(c).finally(() => {
        this.conversationsRun = undefined;
        this.scheduleConversations(c.intervalMs ?? 5_000);
      });
    }, delayMs);
    this.timer.unref(); // a background worker must never keep the process alive
  }

  private async conversationsPass(c: NonNullable<BackgroundWorkerOptions['conversations']>): Promise<void> {
    const signal = this.stopping.signal;
    try {
      const { read } = await c.catchUp(signal);
      const { embedded, remaining } = await c.embed(signal);
      if (read > 0 || embedded > 0) this.emit({ task: 'conversations', indexed: read, embedded, remaining });
    } catch (error) {
      if (!signal.aborted) this.emit({ task: 'conversations', error });
    }
  }

  private emit(event: WorkerEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a failing log callback must not stop the worker
    }
  }
}
