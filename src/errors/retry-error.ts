import { StrataError } from './strata-error.js';

/** Every attempt failed; `errors` holds each attempt's error, `lastError` the final one. */
export class RetryError extends StrataError {
  readonly errors: unknown[];
  readonly lastError: unknown;
  constructor(options: { message: string; errors: unknown[] }) {
    const lastError = options.errors[options.errors.length - 1];
    super({ code: 'RETRY_EXHAUSTED', message: options.message, cause: lastError });
    this.name = 'RetryError';
    this.errors = options.errors;
    this.lastError = lastError;
  }
}
