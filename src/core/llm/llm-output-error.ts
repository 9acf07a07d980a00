import { StrataError } from '../../errors/index.js';

/**
 * The model answered, but not with what was asked (no JSON, or JSON that fails the schema) even
 * after the repair attempt. Not retryable by the transport policy: the caller decides whether to
 * try the batch again later.
 */
export class LlmOutputError extends StrataError {
  readonly text: string;
  constructor(options: { message: string; text: string; cause?: unknown }) {
    super({ code: 'PROVIDER_CALL', message: options.message, cause: options.cause, details: { kind: 'llm-output' } });
    this.name = 'LlmOutputError';
    this.text = options.text;
  }
}
