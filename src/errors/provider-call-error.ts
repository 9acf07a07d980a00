import { StrataError, type StrataErrorCode } from './strata-error.js';

/**
 * A failed call to a remote provider (embedder, reranker, LLM). Retryability is decided here,
 * from the status code, so the shared retry policy never has to guess; a server's `retry-after`
 * (or `retry-after-ms`) is kept in `retryAfterMs` and `details.retryAfterMs`.
 */
export class ProviderCallError extends StrataError {
  readonly url: string;
  readonly statusCode: number | undefined;
  readonly responseHeaders: Record<string, string> | undefined;
  readonly responseBody: string | undefined;
  /** How long the server asked to wait before a retry, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(options: {
    message: string;
    url: string;
    statusCode?: number;
    responseHeaders?: Record<string, string>;
    responseBody?: string;
    cause?: unknown;
    code?: StrataErrorCode;
    isRetryable?: boolean;
  }) {
    const status = options.statusCode;
    const retryable = options.isRetryable ?? (status === undefined || status === 408 || status === 409 || status === 429 || status >= 500);
    const retryAfterMs = retryAfterOf(options.responseHeaders);
    super({
      code: options.code ?? 'PROVIDER_CALL',
      message: options.message,
      cause: options.cause,
      isRetryable: retryable,
      details: { url: options.url, statusCode: status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
    });
    this.retryAfterMs = retryAfterMs;
    this.name = 'ProviderCallError';
    this.url = options.url;
    this.statusCode = status;
    this.responseHeaders = options.responseHeaders;
    this.responseBody = options.responseBody;
  }
}

/** `retry-after-ms` (more precise), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers['retry-after'];
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
