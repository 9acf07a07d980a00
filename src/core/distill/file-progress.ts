import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  DistillBudgetWindow,
  DistillCursorState,
  DistillLockOptions,
  DistillProgressCapabilities,
  DistillProgressV1,
  LegacyDistillCursorState,
} from '../../spec/distill-progress.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';

/**
 * Distill progress in files under the home: `distill/state.json` (the cursor), `distill/budget.json`
 * (the hourly window) and `distill/.lock` (held while a run distils; refreshed while alive, so a
 * killed holder's lock goes stale and is taken over).
 */
export class FileDistillProgress implements DistillProgressV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'files';
  readonly capabilities: DistillProgressCapabilities = { shared: false, lockEndsWithHolder: false };
  readonly statePath: string;
  private readonly budgetPath: string;
  private readonly lockPath: string;

  constructor(options: { home: string }) {
    const dir = join(options.home, 'distill');
    this.statePath = join(dir, 'state.json');
    this.budgetPath = join(dir, 'budget.json');
    this.lockPath = join(dir, '.lock');
  }

  exclusive<T>(options: DistillLockOptions, fn: () => Promise<T>): Promise<T> {
    options.abortSignal?.throwIfAborted();
    return withFileLock({ path: this.lockPath, timeoutMs: options.timeoutMs ?? 0, staleMs: options.staleMs }, fn);
  }

  async readCursor(): Promise<DistillCursorState | LegacyDistillCursorState | undefined> {
    return readJson<DistillCursorState | LegacyDistillCursorState>(this.statePath, false);
  }

  async writeCursor(options: { state: DistillCursorState }): Promise<void> {
    await writeFileAtomic({ path: this.statePath, data: JSON.stringify(options.state) });
  }

  async readBudget(): Promise<DistillBudgetWindow | undefined> {
    const parsed = await readJson<Partial<DistillBudgetWindow>>(this.budgetPath, true);
    if (parsed && typeof parsed.windowStart === 'string' && typeof parsed.calls === 'number' && typeof parsed.tokens === 'number')
      return { windowStart: parsed.windowStart, calls: parsed.calls, tokens: parsed.tokens };
    return undefined;
  }

  async writeBudget(options: { window: DistillBudgetWindow }): Promise<void> {
    await writeFileAtomic({ path: this.budgetPath, data: JSON.stringify(options.window) });
  }

  async close(): Promise<void> {}
}

/** The parsed file, or undefined when it is missing (or, with `lenient`, unreadable JSON: a budget can restart). */
async function readJson<T>(path: string, lenient: boolean): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (lenient && error instanceof SyntaxError) return undefined;
    throw error;
  }
}
