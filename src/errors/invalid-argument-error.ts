import { StrataError, type StrataErrorCode } from './strata-error.js';

/** Bad input from a caller: never retryable, always names the argument and what to do. */
export class InvalidArgumentError extends StrataError {
  readonly argument: string;
  constructor(options: { argument: string; message: string; cause?: unknown; code?: StrataErrorCode }) {
    super({
      code: options.code ?? 'INVALID_ARGUMENT',
      message: options.message,
      cause: options.cause,
      details: { argument: options.argument },
    });
    this.name = 'InvalidArgumentError';
    this.argument = options.argument;
  }
}
