import { InvalidArgumentError, ProviderCallError, StrataError } from '../../errors/index.js';
import { retryWithBackoff } from '../../provider-utils/retry.js';
import type { LlmGenerateOptions, LlmGenerateResult, LlmPricing, LlmV1 } from '../../spec/llm.js';
import type { UsageLogV1 } from '../../spec/usage-log.js';
import { redactDeep } from '../write/redact-record.js';
import { Semaphore } from './semaphore.js';
import { appendUsage, costOf, type LlmUsageEntry } from './usage-log.js';

/**
 * The one way the engine calls an LLM: every call is limited by a semaphore, retried with the
 * shared policy, bounded by a per-attempt timeout and recorded in the usage log. The client is
 * itself an `LlmV1`, so helpers such as `generateObject` accept either.
 */
export interface LlmClientOptions {
  llm: LlmV1;
  /** Calls in flight at once. Default 2. */
  maxConcurrency?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Per attempt. Default 120 s (local models are slow). */
  timeoutMs?: number;
  /** Backoff start and cap (defaults of the shared policy); tests lower them. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Strata home; when set, each call appends a line to `<home>/usage/llm-YYYY-MM.jsonl`. */
  /** Where each call is logged: a usage log, or the files under a home. */
  usageLog?: { home: string } | UsageLogV1;
  /** USD per million tokens keyed by `provider:model` or `model`; overrides the adapter's own pricing. */
  prices?: Record<string, LlmPricing>;
  /** Called with every usage entry (after it is logged). */
  onUsage?: (entry: LlmUsageEntry) => void;
  now?: () => Date;
}

export type LlmClientGenerateOptions = LlmGenerateOptions & {
  /** Label summed by `strata stats`, e.g. `distill.extract`. */
  purpose?: string;
};

export interface LlmClient extends LlmV1 {
  readonly inner: LlmV1;
  doGenerate(options: LlmClientGenerateOptions): Promise<LlmGenerateResult>;
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { llm } = options;
  const maxConcurrency = options.maxConcurrency ?? 2;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new InvalidArgumentError({ argument: 'maxConcurrency', message: 'llm.maxConcurrency must be an integer >= 1.' });
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  const semaphore = new Semaphore(maxConcurrency);
  const now = options.now ?? (() => new Date());
  const pricing = options.prices?.[`${llm.provider}:${llm.modelId}`] ?? options.prices?.[llm.modelId] ?? llm.pricing;

  async function attemptOnce(callOptions: LlmGenerateOptions): Promise<LlmGenerateResult> {
    const caller = callOptions.abortSignal;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    try {
      return await llm.doGenerate({ ...callOptions, abortSignal: signal });
    } catch (error) {
      if (timeout.aborted && !caller?.aborted) {
        throw new ProviderCallError({
          code: 'TIMEOUT',
          url: (error as { url?: string }).url ?? `${llm.provider}:${llm.modelId}`,
          message: `LLM ${llm.provider}:${llm.modelId} did not answer within ${timeoutMs} ms; raise llm.timeoutMs for slow local models.`,
          isRetryable: true,
          cause: error,
        });
      }
      throw error;
    }
  }

  async function record(entry: LlmUsageEntry): Promise<void> {
    if (options.usageLog) {
      // Accounting must never fail the call it accounts for.
      const log = options.usageLog;
      const appended = 'append' in log ? log.append({ entries: [redactDeep(entry)] }) : appendUsage({ home: log.home, entry });
      await appended.catch((error: unknown) => {
        process.emitWarning(`strata: could not append LLM usage: ${(error as Error).message}`);
      });
    }
    options.onUsage?.(entry);
  }

  return {
    specificationVersion: 'v1',
    provider: llm.provider,
    modelId: llm.modelId,
    capabilities: llm.capabilities,
    pricing,
    inner: llm,
    async doGenerate(callOptions) {
      const { purpose, ...generateOptions } = callOptions;
      const started = Date.now();
      let attempts = 0;
      const base = { provider: llm.provider, model: llm.modelId, purpose: purpose ?? 'unlabelled' };
      try {
        const result = await retryWithBackoff(
          () =>
            semaphore.run(() => {
              attempts++;
              return attemptOnce(generateOptions);
            }, generateOptions.abortSignal),
          {
            maxRetries: options.maxRetries ?? 2,
            initialDelayMs: options.initialDelayMs,
            maxDelayMs: options.maxDelayMs,
            abortSignal: generateOptions.abortSignal,
            operation: `LLM call ${llm.provider}:${llm.modelId}`,
          },
        );
        const { inputTokens, outputTokens } = result.usage;
        await record({
          ...base,
          at: now().toISOString(),
          ok: true,
          inputTokens,
          outputTokens,
          costUsd: result.usage.costUsd ?? costOf({ pricing, inputTokens, outputTokens }),
          latencyMs: Date.now() - started,
          attempts,
        });
        return result;
      } catch (error) {
        await record({
          ...base,
          at: now().toISOString(),
          ok: false,
          inputTokens: 0,
          outputTokens: 0,
          costUsd: pricing ? 0 : null,
          latencyMs: Date.now() - started,
          attempts,
          errorCode: StrataError.isInstance(error) ? error.code : 'UNKNOWN',
        });
        throw error;
      }
    },
  };
}
