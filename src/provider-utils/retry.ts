import { InvalidArgumentError, RetryError, StrataError } from '../errors/index.js';
import { retryAfterOf } from '../errors/provider-call-error.js';

/**
 * The one retry policy in Strata: exponential backoff, honours the server's wait (`retryAfterMs`
 * in a typed error's details, else `retry-after-ms` / `retry-after` headers), never retries an
 * abort or a non-retryable error. Adapters make one attempt and throw typed errors; the engine's
 * services (embedding service, LLM client) retry through this function.
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Default 1000 ms. */
  initialDelayMs?: number;
  /** Default 2. */
  backoffFactor?: number;
  /** Cap on any single wait, including a server's retry-after. Default 60 s. */
  maxDelayMs?: number;
  abortSignal?: AbortSignal;
  /** Label used in the RetryError message. */
  operation?: string;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (StrataError.isInstance(error) && error.code === 'ABORTED'));
}

/**
 * The error to throw for a caller's abort: the signal's reason when it already reads as an abort,
 * otherwise an ABORTED StrataError carrying it, so callers can always tell an abort apart.
 */
export function abortErrorFrom(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (isAbortError(reason)) return reason;
  return new StrataError({ code: 'ABORTED', message: 'The call was aborted by the caller.', cause: reason });
}

/** The wait a provider asked for: `details.retryAfterMs` of a typed error, else its response headers. */
function serverDelayMs(error: unknown): number | undefined {
  const details = StrataError.isInstance(error) ? error.details : undefined;
  const fromDetails = details?.retryAfterMs;
  if (typeof fromDetails === 'number' && Number.isFinite(fromDetails)) return fromDetails;
  return retryAfterOf((error as { responseHeaders?: Record<string, string> } | null)?.responseHeaders);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortErrorFrom(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal ? abortErrorFrom(signal) : new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function retryWithBackoff<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new InvalidArgumentError({ argument: 'maxRetries', message: 'maxRetries must be a non-negative integer.' });
  }
  const initial = options.initialDelayMs ?? 1000;
  const factor = options.backoffFactor ?? 2;
  const maxDelay = options.maxDelayMs ?? 60_000;
  const errors: unknown[] = [];
  let delay = initial;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (isAbortError(error)) throw error;
      // Aborted while the attempt failed for another reason: the caller asked to stop, so say so.
      if (options.abortSignal?.aborted) throw abortErrorFrom(options.abortSignal);
      const retryable = StrataError.isInstance(error) && error.isRetryable;
      if (!retryable || maxRetries === 0) {
        if (errors.length === 0) throw error;
        errors.push(error);
        throw new RetryError({
          message: `${options.operation ?? 'Call'} failed after ${errors.length} attempts: ${(error as Error).message}`,
          errors,
        });
      }
      errors.push(error);
      if (attempt >= maxRetries) {
        throw new RetryError({
          message: `${options.operation ?? 'Call'} failed after ${errors.length} attempts: ${(error as Error).message}`,
          errors,
        });
      }
      const fromHeader = serverDelayMs(error);
      const wait = Math.min(maxDelay, fromHeader !== undefined && fromHeader >= 0 ? fromHeader : delay);
      await sleep(wait, options.abortSignal);
      delay *= factor;
    }
  }
}
