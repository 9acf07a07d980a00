/**
 * Base of every error Strata raises. Identity is checked through a `Symbol.for` brand rather
 * than `instanceof`, so it survives duplicate copies of the package in one process.
 */
const BRAND = Symbol.for('strata.error');

export type StrataErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_SCOPE'
  /** A valid scope (or agent) the caller does not hold: a request can narrow access, never widen it. */
  | 'FORBIDDEN_SCOPE'
  | 'INVALID_AGENT_ID'
  | 'CONFIG_INVALID'
  | 'CONFIG_UNREADABLE'
  | 'STORAGE'
  | 'STORE_LOCKED'
  /** A versioned write found the data at another version than the writer read (see LayerConflictError). */
  | 'VERSION_CONFLICT'
  | 'EMBEDDER_MISMATCH'
  | 'NOT_FOUND'
  | 'PROVIDER_CALL'
  | 'PROVIDER_AUTH'
  | 'PROVIDER_MODEL_NOT_FOUND'
  | 'PROVIDER_DIMENSION_MISMATCH'
  | 'RETRY_EXHAUSTED'
  | 'ABORTED'
  | 'TIMEOUT'
  | 'IMPORT_INVALID'
  | 'UNSUPPORTED'
  /** No, an unknown or a revoked bearer token (HTTP 401); `details.reason` says which. */
  | 'UNAUTHORIZED'
  /** A remote Strata service could not be reached or answered 5xx (retryable). */
  | 'UNAVAILABLE';

export interface StrataErrorOptions {
  code: StrataErrorCode;
  message: string;
  cause?: unknown;
  /** Whether the same call may succeed if repeated; decided where the error is raised. */
  isRetryable?: boolean;
  /** Structured details for machine-readable output (never secrets). */
  details?: Record<string, unknown>;
}

export class StrataError extends Error {
  readonly [BRAND] = true;
  readonly code: StrataErrorCode;
  readonly isRetryable: boolean;
  readonly details: Record<string, unknown> | undefined;

  constructor(options: StrataErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StrataError';
    this.code = options.code;
    this.isRetryable = options.isRetryable ?? false;
    this.details = options.details;
  }

  static isInstance(error: unknown): error is StrataError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}
