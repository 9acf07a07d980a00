import { StrataError } from '../../errors/index.js';

/**
 * A counting semaphore whose waiters can be aborted. Hand-written (20 lines) because p-limit
 * cannot drop one queued task when its caller's AbortSignal fires.
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  get inUse(): number {
    return this.active;
  }

  async run<T>(fn: () => Promise<T>, abortSignal?: AbortSignal): Promise<T> {
    await this.acquire(abortSignal);
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiters.shift()?.();
    }
  }

  private acquire(abortSignal?: AbortSignal): Promise<void> {
    if (abortSignal?.aborted) return Promise.reject(abortedError(abortSignal));
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        abortSignal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortedError(abortSignal));
      };
      this.waiters.push(grant);
      abortSignal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

export function abortedError(signal: AbortSignal | undefined): StrataError {
  return new StrataError({ code: 'ABORTED', message: 'The LLM call was aborted by the caller.', cause: signal?.reason });
}
