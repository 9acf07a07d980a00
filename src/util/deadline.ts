/**
 * Runs `fn` with a deadline: after `timeoutMs` the signal given to `fn` is aborted and the call
 * rejects with `onTimeout()`, even if `fn` ignores its signal (a slow provider must never hold
 * the caller). A caller's own abort propagates through the same signal.
 */
export async function withDeadline<T>(
  options: { timeoutMs: number; abortSignal?: AbortSignal; onTimeout: () => Error },
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, controller.signal]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = options.onTimeout();
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
  });
  try {
    return await Promise.race([fn(signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
