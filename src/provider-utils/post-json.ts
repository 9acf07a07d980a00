import { z } from 'zod';
import { ProviderCallError } from '../errors/index.js';
import { abortErrorFrom, isAbortError } from './retry.js';

/**
 * The one HTTP helper for JSON providers (embedders, rerankers, LLMs). It never retries: callers
 * wrap it in `retryWithBackoff`. Every failure becomes a `ProviderCallError` whose `isRetryable`
 * is decided here (status code, timeout), except a caller abort, which is rethrown as an abort.
 */
export interface PostJsonOptions<T> {
  url: string;
  headers?: Record<string, string | undefined>;
  body: unknown;
  /** Parses the success body; keep only the fields the caller reads. */
  schema: z.ZodType<T>;
  /** Per-attempt time limit. Default 30 s. */
  timeoutMs?: number;
  abortSignal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
  /** Names the provider in messages, e.g. "OpenAI-compatible embeddings". */
  description?: string;
  /** Added to 401/403 messages, e.g. "Check the JINA_API_KEY environment variable." */
  authHint?: string;
}

export interface PostJsonResult<T> {
  value: T;
  /** Lower-cased header names. */
  responseHeaders: Record<string, string>;
}

const MAX_BODY_CHARS = 2000;
const MODEL_NOT_FOUND =
  /model[^.]{0,120}?(not found|does not exist|not exist|unknown|not available|no such)|unknown model|model_not_found|no such model|try pulling it/i;

function trimBody(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_BODY_CHARS ? `${trimmed.slice(0, MAX_BODY_CHARS)}… (${trimmed.length} chars)` : trimmed;
}

/** Pulls the provider's own error message out of common JSON error shapes. */
function providerMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const record = parsed as Record<string, unknown>;
    const error = record.error;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && typeof (error as Record<string, unknown>).message === 'string') {
      return (error as Record<string, string>).message;
    }
    for (const key of ['message', 'detail']) {
      if (typeof record[key] === 'string') return record[key] as string;
    }
  } catch {
    // not JSON: the raw (trimmed) body is reported instead
  }
  return undefined;
}

function cleanHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) out[key.toLowerCase()] = value;
  }
  return out;
}

function statusError(options: {
  url: string;
  description: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  authHint: string | undefined;
}): ProviderCallError {
  const { url, description, status, headers, body } = options;
  const detail = providerMessage(body) ?? (trimBody(body) || '(empty body)');
  const common = { url, statusCode: status, responseHeaders: headers, responseBody: trimBody(body) };
  if (status === 401 || status === 403) {
    return new ProviderCallError({
      ...common,
      code: 'PROVIDER_AUTH',
      isRetryable: false,
      message: `${description} rejected the credentials (HTTP ${status}: ${detail}). ${options.authHint ?? 'Check the API key.'}`,
    });
  }
  if (status === 404 || (status >= 400 && status < 500 && MODEL_NOT_FOUND.test(body))) {
    return new ProviderCallError({
      ...common,
      code: 'PROVIDER_MODEL_NOT_FOUND',
      isRetryable: false,
      message: `${description} does not know this model or endpoint (HTTP ${status}: ${detail}). Check the model name and the base URL ${url}; a local server (e.g. Ollama) may need the model pulled first.`,
    });
  }
  return new ProviderCallError({ ...common, message: `${description} failed with HTTP ${status}: ${detail}` });
}

export async function postJson<T>(options: PostJsonOptions<T>): Promise<PostJsonResult<T>> {
  const { url } = options;
  const description = options.description ?? `Provider at ${url}`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timeoutSignal]) : timeoutSignal;
  const doFetch = options.fetch ?? globalThis.fetch;

  let status: number;
  let headers: Record<string, string>;
  let text: string;
  try {
    const response = await doFetch(url, {
      method: 'POST',
      headers: cleanHeaders(options.headers),
      body: JSON.stringify(options.body),
      signal,
    });
    status = response.status;
    headers = Object.fromEntries(response.headers); // Headers iterate with lower-cased names
    text = await response.text();
  } catch (error) {
    if (options.abortSignal?.aborted) throw isAbortError(error) ? error : abortErrorFrom(options.abortSignal);
    if (timeoutSignal.aborted) {
      throw new ProviderCallError({
        url,
        code: 'TIMEOUT',
        isRetryable: true,
        cause: error,
        message: `${description} did not answer within ${timeoutMs} ms; raise timeoutMs or check the server's load.`,
      });
    }
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new ProviderCallError({
      url,
      cause: error,
      message: `Cannot reach ${description} at ${url} (${reason}); check the base URL and that the server is running.`,
    });
  }

  if (status < 200 || status >= 300) {
    throw statusError({ url, description, status, headers, body: text, authHint: options.authHint });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ProviderCallError({
      url,
      statusCode: status,
      responseHeaders: headers,
      responseBody: trimBody(text),
      cause,
      isRetryable: false,
      message: `${description} answered HTTP ${status} with a body that is not JSON; check that the base URL points at the API (e.g. ends in /v1).`,
    });
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    throw new ProviderCallError({
      url,
      statusCode: status,
      responseHeaders: headers,
      responseBody: trimBody(text),
      cause: parsed.error,
      isRetryable: false,
      message: `${description} answered with an unexpected response shape: ${z.prettifyError(parsed.error)}`,
    });
  }
  return { value: parsed.data, responseHeaders: headers };
}
