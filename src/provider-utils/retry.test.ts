import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProviderCallError, RetryError, StrataError } from '../errors/index.js';
import { isAbortError, retryWithBackoff } from './retry.js';

const retryable = (headers?: Record<string, string>) =>
  new ProviderCallError({ message: 'busy', url: 'http://x', statusCode: 429, responseHeaders: headers });
const fatal = () => new ProviderCallError({ message: 'bad key', url: 'http://x', statusCode: 401, code: 'PROVIDER_AUTH' });

/** Fails with the given errors in turn, then returns 'ok'; records each attempt's time. */
function script(errors: unknown[]) {
  const attempts: number[] = [];
  const fn = async () => {
    attempts.push(performance.now());
    const error = errors[attempts.length - 1];
    if (error !== undefined) throw error;
    return 'ok';
  };
  return { fn, attempts };
}

describe('retryWithBackoff', () => {
  it('returns the first success after retryable failures', async () => {
    const { fn, attempts } = script([retryable(), retryable()]);
    await expect(retryWithBackoff(fn, { initialDelayMs: 1 })).resolves.toBe('ok');
    expect(attempts).toHaveLength(3);
  });

  it('rethrows a non-retryable first failure unwrapped, without retrying', async () => {
    const { fn, attempts } = script([fatal()]);
    const error = await retryWithBackoff(fn, { initialDelayMs: 1 }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_AUTH');
    expect(attempts).toHaveLength(1);
  });

  it('rethrows unwrapped with maxRetries 0', async () => {
    const { fn, attempts } = script([retryable()]);
    const error = await retryWithBackoff(fn, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(attempts).toHaveLength(1);
  });

  it('gives up with a RetryError holding every attempt', async () => {
    const { fn, attempts } = script([retryable(), retryable(), retryable(), retryable()]);
    const error = await retryWithBackoff(fn, { maxRetries: 2, initialDelayMs: 1, operation: 'Embedding' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryError);
    expect((error as RetryError).errors).toHaveLength(3);
    expect((error as RetryError).message).toMatch(/^Embedding failed after 3 attempts/);
    expect((error as RetryError).isRetryable).toBe(false); // so an outer retry does not compound
    expect(attempts).toHaveLength(3);
  });

  it('waits what retry-after-ms says instead of the (huge) backoff', async () => {
    const { fn, attempts } = script([retryable({ 'retry-after-ms': '30' })]);
    // With the header ignored the test would wait 10 minutes and time out.
    await expect(retryWithBackoff(fn, { initialDelayMs: 600_000 })).resolves.toBe('ok');
    expect(attempts).toHaveLength(2);
    expect((attempts[1] ?? 0) - (attempts[0] ?? 0)).toBeGreaterThanOrEqual(25);
  });

  it('reads retry-after in seconds and as an HTTP date', async () => {
    const seconds = script([retryable({ 'retry-after': '0' })]);
    await expect(retryWithBackoff(seconds.fn, { initialDelayMs: 600_000 })).resolves.toBe('ok');
    const date = script([retryable({ 'retry-after': new Date(Date.now() - 1000).toUTCString() })]);
    await expect(retryWithBackoff(date.fn, { initialDelayMs: 600_000 })).resolves.toBe('ok');
  });

  it("honours retryAfterMs in a typed error's details (any StrataError a backend raises)", async () => {
    const busy = new StrataError({ code: 'STORAGE', message: 'busy', isRetryable: true, details: { retryAfterMs: 20 } });
    const { fn, attempts } = script([busy]);
    await expect(retryWithBackoff(fn, { initialDelayMs: 600_000 })).resolves.toBe('ok');
    expect(attempts).toHaveLength(2);
    expect(retryable({ 'retry-after': '2' }).details).toMatchObject({ retryAfterMs: 2000 });
  });

  it('caps a server wait at maxDelayMs', async () => {
    const { fn, attempts } = script([retryable({ 'retry-after': '3600' })]);
    await expect(retryWithBackoff(fn, { maxDelayMs: 5 })).resolves.toBe('ok');
    expect(attempts).toHaveLength(2);
  });

  it('never retries an abort, and stops waiting when aborted', async () => {
    const abort = new DOMException('stop', 'AbortError');
    const { fn, attempts } = script([abort]);
    await expect(retryWithBackoff(fn, { initialDelayMs: 1 })).rejects.toBe(abort);
    expect(attempts).toHaveLength(1);

    const controller = new AbortController();
    const slow = script([retryable(), retryable()]);
    const pending = retryWithBackoff(slow.fn, { initialDelayMs: 600_000, abortSignal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(slow.attempts).toHaveLength(1);
  });

  it('reports an abort with a custom reason as ABORTED', async () => {
    const controller = new AbortController();
    const { fn } = script([retryable(), retryable()]);
    const pending = retryWithBackoff(fn, { initialDelayMs: 600_000, abortSignal: controller.signal });
    controller.abort('user pressed ctrl-c');
    const error = await pending.catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('ABORTED');
    expect((error as Error).cause).toBe('user pressed ctrl-c');
  });

  it('rejects an invalid maxRetries', async () => {
    await expect(retryWithBackoff(async () => 1, { maxRetries: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(retryWithBackoff(async () => 1, { maxRetries: 1.5 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
