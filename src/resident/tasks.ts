/**
 * The resident's background work, one task at a time per queue (one writer per home): captures
 * that must outlive the host process, follow-up reads of a transcript the host writes late,
 * distillation. A task added under a key that is already waiting is not queued twice; the caller
 * gets the waiting task's completion instead.
 */
export interface TaskQueueOptions {
  onError: (key: string, error: unknown) => void;
}

type Run = (signal: AbortSignal) => Promise<void>;

interface Pending {
  key: string;
  run: Run;
  done: Promise<void>;
  settle: () => void;
}

function pending(key: string, run: Run): Pending {
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (settle = resolve));
  return { key, run, done, settle };
}

export class TaskQueue {
  private readonly queue: Pending[] = [];
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; task: Pending }>();
  private running: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: TaskQueueOptions) {}

  /** True while a task runs, waits, or is scheduled for later. */
  get busy(): boolean {
    return this.running !== undefined || this.queue.length > 0 || this.timers.size > 0;
  }

  /**
   * Queues `run` now, or after `delayMs`; a key already waiting (queued or timed) is kept once.
   * Resolves when the task has run (failures go to `onError`, never to the caller) or was dropped.
   */
  add(key: string, run: Run, options: { delayMs?: number } = {}): Promise<void> {
    if (this.controller.signal.aborted) return Promise.resolve();
    const waiting = this.queue.find((p) => p.key === key) ?? this.timers.get(key)?.task;
    if (waiting) return waiting.done;
    const task = pending(key, run);
    if (options.delayMs && options.delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(key);
        this.enqueue(task);
      }, options.delayMs);
      this.timers.set(key, { timer, task });
    } else {
      this.enqueue(task);
    }
    return task.done;
  }

  private enqueue(task: Pending): void {
    this.queue.push(task);
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    const next = this.queue.shift();
    if (!next) {
      if (this.timers.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    this.running = next
      .run(this.controller.signal)
      .catch((error: unknown) => this.options.onError(next.key, error))
      .finally(() => {
        next.settle();
        this.running = undefined;
        this.pump();
      });
  }

  /** Resolves when nothing runs, waits or is scheduled. */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops scheduled and queued tasks, signals the running one to stop, and waits for it. */
  async stop(): Promise<void> {
    for (const { timer, task } of this.timers.values()) {
      clearTimeout(timer);
      task.settle();
    }
    this.timers.clear();
    for (const task of this.queue.splice(0)) task.settle();
    this.controller.abort();
    await this.running;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
