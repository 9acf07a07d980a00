import type { MemoryStoreV1 } from '../../spec/memory-store.js';

/**
 * Access reinforcement without slowing recall: hits are counted in memory and written in one
 * batched `touch` after a short delay (or on close). Losing a few counts on a crash is acceptable;
 * blocking the recall path on a ~7 ms write is not.
 */
export class AccessTracker {
  private pending = new Map<string, { count: number; at: string }>();
  private timer: NodeJS.Timeout | undefined;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MemoryStoreV1,
    private readonly delayMs = 2_000,
  ) {}

  record(ids: string[], at: Date): void {
    const iso = at.toISOString();
    for (const id of ids) {
      const prev = this.pending.get(id);
      this.pending.set(id, { count: (prev?.count ?? 0) + 1, at: iso });
    }
    if (!this.timer && this.pending.size > 0) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.inflight;
    const accesses = [...this.pending].map(([id, v]) => ({ id, count: v.count, at: v.at }));
    this.pending.clear();
    this.inflight = this.inflight.then(() => this.store.touch({ accesses }).catch(() => undefined));
    return this.inflight;
  }
}
