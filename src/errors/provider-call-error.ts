import { StrataError, type StrataErrorCode } from './strata-error.js';

/**
 * A failed call to a remote provider (embedder, reranker, LLM). Retryability is decided here,
 * from the status code, so the shared retry policy never has to guess.
 */
export class ProviderCallError extends StrataError {
  readonly url: string;
  readonly statusCode: number | undefined;
  readonly responseHeaders: Record<string, string> | undefined;
  readonly responseBody: string | undefined;

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
    const retryable =
      options.isRetryable ?? (status === undefined || status === 408 || status === 409 || status === 429 || status >= 500);
    super({
      code: options.code ?? 'PROVIDER_CALL',
      message: options.message,
      cause: options.cause,
      isRetryable: retryable,
      details: { url: options.url, statusCode: status },
    });
    this.name = 'ProviderCallError';
    this.url = options.url;
    this.statusCode = status;
    this.responseHeaders = options.responseHeaders;
    this.responseBody = options.responseBody;
  }
}
