import type { z } from 'zod';
import { StrataError } from '../../errors/index.js';
import { isAbortError, retryWithBackoff } from '../../provider-utils/retry.js';
import type { LlmMessage, LlmV1 } from '../../spec/llm.js';
import { generateObject } from '../llm/generate-object.js';
import type { LlmClient } from '../llm/llm-client.js';

/** Errors another attempt cannot fix (bad credentials, unknown model, bad arguments). */
function isFatal(error: unknown): boolean {
  return (
    StrataError.isInstance(error) &&
    ['PROVIDER_AUTH', 'PROVIDER_MODEL_NOT_FOUND', 'INVALID_ARGUMENT', 'CONFIG_INVALID'].includes(error.code)
  );
}

/**
 * Structured generation attempted `attempts` times through the shared retry policy. The
 * LlmClient already retries transport errors; this outer loop also covers replies still
 * malformed after the repair round and calls that finally failed.
 */
export async function generateWithAttempts<T>(options: {
  llm: LlmV1 | LlmClient;
  messages: LlmMessage[];
  schema: z.ZodType<T>;
  schemaName: string;
  purpose: string;
  attempts: number;
  retryDelayMs: number;
  maxTokens?: number;
  abortSignal?: AbortSignal;
}): Promise<T> {
  return retryWithBackoff(
    async () => {
      try {
        const result = await generateObject({
          llm: options.llm,
          messages: options.messages,
          schema: options.schema,
          schemaName: options.schemaName,
          purpose: options.purpose,
          temperature: 0.2,
          maxTokens: options.maxTokens,
          abortSignal: options.abortSignal,
        });
        return result.object;
      } catch (error) {
        if (isAbortError(error) || isFatal(error)) throw error;
        // Marked retryable here so the shared policy runs the outer attempts.
        throw new StrataError({ code: 'PROVIDER_CALL', message: (error as Error).message, cause: error, isRetryable: true });
      }
    },
    {
      maxRetries: options.attempts - 1,
      initialDelayMs: options.retryDelayMs,
      abortSignal: options.abortSignal,
      operation: `${options.purpose} generation`,
    },
  );
}
