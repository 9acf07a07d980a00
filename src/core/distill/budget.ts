import type { DistillProgressV1 } from '../../spec/distill-progress.js';

/**
 * The distill budget: LLM calls and tokens per run and per hour. The hourly window is persisted
 * (in the distill progress store: `<home>/distill/budget.json`, or the database) so separate runs,
 * processes and machines share it. Spending is checked
 * before a chunk starts; when the budget is spent the chunk waits for a later run (nothing is
 * dropped), and `resumeAt` says when the hourly window frees up.
 */
export interface DistillBudget {
  maxCallsPerRun?: number;
  maxTokensPerRun?: number;
  maxCallsPerHour?: number;
  maxTokensPerHour?: number;
}

export const DEFAULT_BUDGET: Required<DistillBudget> = {
  maxCallsPerRun: 200,
  maxTokensPerRun: 400_000,
  maxCallsPerHour: 600,
  maxTokensPerHour: 1_200_000,
};

interface Window {
  windowStart: string;
  calls: number;
  tokens: number;
}

const HOUR_MS = 3_600_000;

export class BudgetTracker {
  private readonly progress: DistillProgressV1;
  private readonly limits: Required<DistillBudget>;
  private window: Window = { windowStart: new Date(0).toISOString(), calls: 0, tokens: 0 };
  private run = { calls: 0, tokens: 0 };

  constructor(options: { progress: DistillProgressV1; budget?: DistillBudget }) {
    this.progress = options.progress;
    this.limits = { ...DEFAULT_BUDGET, ...stripUndefined(options.budget ?? {}) };
  }

  async load(now: Date): Promise<void> {
    const stored = await this.progress.readBudget();
    if (stored) this.window = { ...stored };
    this.roll(now);
  }

  private roll(now: Date): void {
    if (now.getTime() - Date.parse(this.window.windowStart) >= HOUR_MS)
      this.window = { windowStart: now.toISOString(), calls: 0, tokens: 0 };
  }

  /** Whether `calls` more calls of about `tokens` tokens fit; otherwise when the hourly window resets. */
  check(options: { calls: number; tokens: number; now: Date }): { ok: true } | { ok: false; limit: string; resumeAt?: string } {
    this.roll(options.now);
    const l = this.limits;
    if (this.run.calls + options.calls > l.maxCallsPerRun) return { ok: false, limit: 'maxCallsPerRun' };
    if (this.run.tokens + options.tokens > l.maxTokensPerRun) return { ok: false, limit: 'maxTokensPerRun' };
    const resumeAt = new Date(Date.parse(this.window.windowStart) + HOUR_MS).toISOString();
    if (this.window.calls + options.calls > l.maxCallsPerHour) return { ok: false, limit: 'maxCallsPerHour', resumeAt };
    if (this.window.tokens + options.tokens > l.maxTokensPerHour) return { ok: false, limit: 'maxTokensPerHour', resumeAt };
    return { ok: true };
  }

  async spend(options: { calls: number; tokens: number; now: Date }): Promise<void> {
    this.roll(options.now);
    this.run.calls += options.calls;
    this.run.tokens += options.tokens;
    this.window.calls += options.calls;
    this.window.tokens += options.tokens;
    await this.progress.writeBudget({ window: { ...this.window } });
  }

  get spentThisRun(): { calls: number; tokens: number } {
    return { ...this.run };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
