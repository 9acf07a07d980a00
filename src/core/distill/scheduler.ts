import { StrataError } from '../../errors/index.js';
import type { DistillProgressV1 } from '../../spec/distill-progress.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import { FileDistillProgress } from './file-progress.js';
import { DistillCursor } from './l0-source.js';
import type { DistillReport } from './run.js';

/**
 * Runs distillation in the background: after N new messages in the L0 log (counted, or notified) or
 * when new messages have sat for `idleMs` without more arriving. Each run takes the distill lock
 * (`runDistill` does, failing fast), so several processes (`strata watch`, host plugins) can each
 * run a scheduler and only one distills at a time; a lock left by a killed process goes stale and
 * is taken over. When the budget is spent the next attempt waits until the budget window resets.
 */
export interface DistillSchedulerOptions {
  home: string;
  /** The L0 log the runs read (for the cheap "is there work" probe). */
  log: L0LogV1;
  /** Where the runs keep their cursor (the same store `run` uses). Default: files under `home`. */
  progress?: DistillProgressV1;
  /** One distill run (typically `() => runDistill({...})`). */
  run: () => Promise<DistillReport>;
  /** Run once this many new messages were seen via `notify` or are waiting in the log. Default 20. */
  everyMessages?: number;
  /** Run when pending messages have been idle this long. Default 5 min. */
  idleMs?: number;
  /** How often to look at the L0 log. Default 10 s. */
  pollMs?: number;
  onReport?: (report: DistillReport) => void;
  onError?: (error: unknown) => void;
  now?: () => Date;
}

export class DistillScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private notified = 0;
  private lastPending = 0;
  private lastChangeAt = 0;
  private waitUntil = 0;
  private stopped = true;
  private readonly cursor: DistillCursor;

  constructor(private readonly options: DistillSchedulerOptions) {
    this.cursor = new DistillCursor({ progress: options.progress ?? new FileDistillProgress({ home: options.home }), log: options.log });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastChangeAt = this.nowMs();
    this.schedule();
  }

  /** Stops polling and waits for a run in progress to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Hosts call this when they captured messages, so the count threshold needs no polling. */
  notify(options: { messages: number } = { messages: 1 }): void {
    this.notified += options.messages;
    this.lastChangeAt = this.nowMs();
    if (this.notified >= (this.options.everyMessages ?? 20)) void this.tick();
  }

  /** One check (also what the timer calls); resolves when any run it started has finished. */
  async tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.check().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private nowMs(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.options.pollMs ?? 10_000);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    const now = this.nowMs();
    if (now < this.waitUntil) return;
    const everyMessages = this.options.everyMessages ?? 20;
    let pending: number;
    try {
      await this.cursor.load();
      pending = await this.cursor.pendingMessages({ max: everyMessages });
    } catch (error) {
      this.options.onError?.(error);
      return;
    }
    if (pending !== this.lastPending) {
      if (pending > this.lastPending) this.lastChangeAt = now;
      this.lastPending = pending;
    }
    if (pending === 0 && this.notified === 0) return;
    const byCount = this.notified >= everyMessages || pending >= everyMessages;
    const byIdle = now - this.lastChangeAt >= (this.options.idleMs ?? 300_000);
    if (!byCount && !byIdle) return;
    try {
      const report = await this.options.run();
      this.notified = 0;
      this.lastPending = 0;
      if (report.budget.exhausted) {
        const resume = report.budget.resumeAt ? Date.parse(report.budget.resumeAt) : now + (this.options.idleMs ?? 300_000);
        this.waitUntil = Number.isFinite(resume) ? resume : now + 60_000;
      }
      this.options.onReport?.(report);
    } catch (error) {
      // Another process holds the distill lock: it is doing the work; try again on a later tick.
      if (StrataError.isInstance(error) && error.code === 'STORE_LOCKED') return;
      this.options.onError?.(error);
    }
  }
}
