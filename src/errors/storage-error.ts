import { StrataError, type StrataErrorCode } from './strata-error.js';

/** A failure of the memory store (disk, engine, lock, schema). */
export class StorageError extends StrataError {
  constructor(options: {
    message: string;
    cause?: unknown;
    code?: StrataErrorCode;
    isRetryable?: boolean;
    details?: Record<string, unknown>;
  }) {
    super({
      code: options.code ?? 'STORAGE',
      message: options.message,
      cause: options.cause,
      isRetryable: options.isRetryable,
      details: options.details,
    });
    this.name = 'StorageError';
  }
}
