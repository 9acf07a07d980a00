/**
 * The periodic summaries worker: one `runSummaries` pass every `intervalMs`, never two at once in
 * this process, and sessions held by another process are skipped for this tick (their lock is
 * not waited for) instead of stalling the timer.
 */
import { resolveSummaryOptions } from './options.js';
import { runSummaries, type RunSummariesOptions, type SummaryRunReport } from './run.js';

export interface SummaryWorkerOptions extends Omit<RunSummariesOptions, 'dryRun' | 'abortSignal'> {
  /** Default `config.intervalMs` (10 minutes). */
  intervalMs?: number;
  onReport?: (report: SummaryRunReport) => void;
  onError?: (error: unknown) => void;
}

export interface SummaryWorker {
  /** Schedules a pass every interval (the first after one interval; call `runOnce` to start at once). */
  start(): void;
  /** Stops the timer, aborts a pass in flight and waits for it to end. */
  stop(): Promise<void>;
  /** One pass now; joins the pass in flight if there is one. */
  runOnce(): Promise<SummaryRunReport>;
  readonly running: boolean;
}

export function createSummaryWorker(options: SummaryWorkerOptions): SummaryWorker {
  const intervalMs = options.intervalMs ?? resolveSummaryOptions(options.config).intervalMs;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let inFlight: Promise<SummaryRunReport> | undefined;
  let controller: AbortController | undefined;

  function runOnce(): Promise<SummaryRunReport> {
    if (inFlight) return inFlight;
    controller = new AbortController();
    const { intervalMs: _interval, onReport: _onReport, onError: _onError, ...runOptions } = options;
    inFlight = runSummaries({ lockTimeoutMs: 0, ...runOptions, abortSignal: controller.signal }).finally(() => {
      inFlight = undefined;
      controller = undefined;
    });
    return inFlight;
  }

  function schedule(): void {
    if (!started) return;
    timer = setTimeout(() => {
      runOnce()
        .then(
          (report) => options.onReport?.(report),
          (error: unknown) => {
            if (started) options.onError?.(error); // an abort from stop() is not an error to report
          },
        )
        .finally(schedule);
    }, intervalMs);
    timer.unref(); // a background worker must never keep the process alive
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      const pending = inFlight;
      controller?.abort();
      await pending?.catch(() => undefined);
    },
    runOnce,
    get running() {
      return inFlight !== undefined;
    },
  };
}
