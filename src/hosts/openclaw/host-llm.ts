/**
 * The model OpenClaw is configured with, as an `LlmV1`: distillation and summaries need no key of
 * their own inside OpenClaw. It calls `api.runtime.llm.complete` (OpenClaw >= 2026.9), which
 * resolves the default agent's model and credentials the way OpenClaw's own background work does;
 * a plugin may not pick another agent or model without a policy grant, so neither is asked for.
 * `complete` has no tool calls: the scene organiser runs on OpenClaw's embedded runner instead
 * (organiser-runner.ts), and where a runtime lacks that runner its tools go through the text
 * protocol (core/layers/text-tools.ts): the model answers with JSON actions that the organiser's
 * own loop runs through its sandboxed tools, with its own turn and time bounds.
 */
import { withTextToolProtocol } from '../../core/layers/text-tools.js';
import { ProviderCallError } from '../../errors/index.js';
import type { LlmFinishReason, LlmGenerateOptions, LlmGenerateResult, LlmMessage, LlmV1 } from '../../spec/llm.js';

/** `api.runtime.llm.complete`'s slice of OpenClaw's `LlmCompleteParams` / `LlmCompleteResult`. */
export interface HostLlmCompleteParams {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  systemPrompt?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  purpose?: string;
}

export interface HostLlmCompleteResult {
  text: string;
  provider?: string;
  model?: string;
  stopReason?: 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';
  usage?: { inputTokens?: number; outputTokens?: number };
}

export interface HostLlmRuntime {
  complete(params: HostLlmCompleteParams): Promise<HostLlmCompleteResult>;
}

/** The host's completion function when this OpenClaw has one (`api.runtime.llm.complete`). */
export function hostLlmRuntimeOf(runtime: unknown): HostLlmRuntime | undefined {
  try {
    const llm = (runtime as { llm?: { complete?: unknown } } | undefined)?.llm;
    return typeof llm?.complete === 'function' ? (llm as HostLlmRuntime) : undefined;
  } catch {
    // OpenClaw's runtime is a lazy proxy that throws where it is unavailable (cli-metadata loads).
    return undefined;
  }
}

const FINISH: Record<string, LlmFinishReason> = { stop: 'stop', length: 'length', toolUse: 'tool-calls', error: 'error', aborted: 'other' };

/** Tool turns have no place in a plain completion: they become text, so a transcript still reads. */
function toHostMessages(messages: LlmMessage[]): HostLlmCompleteParams['messages'] {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'user' as const, content: `Result of ${m.toolName ?? 'tool'}: ${m.content}` };
    return { role: m.role, content: m.content };
  });
}

/** The host model with tool calls through the text protocol (what Strata uses inside OpenClaw). */
export function createOpenClawHostLlm(options: { runtime: HostLlmRuntime; purpose?: string }): LlmV1 {
  return withTextToolProtocol(createOpenClawCompletionLlm(options));
}

/** The host model as it is: plain completions. */
export function createOpenClawCompletionLlm(options: { runtime: HostLlmRuntime; purpose?: string }): LlmV1 {
  const { runtime } = options;
  let model = 'default';
  return {
    specificationVersion: 'v1',
    provider: 'openclaw',
    get modelId() {
      return model;
    },
    capabilities: { supportsJsonSchema: false, supportsTools: false },
    async doGenerate(call: LlmGenerateOptions): Promise<LlmGenerateResult> {
      let result: HostLlmCompleteResult;
      try {
        result = await runtime.complete({
          messages: toHostMessages(call.messages),
          ...(call.maxTokens !== undefined ? { maxTokens: call.maxTokens } : {}),
          ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
          ...(call.abortSignal ? { signal: call.abortSignal } : {}),
          purpose: options.purpose ?? 'strata memory distillation',
        });
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        // Authorisation and configuration failures repeat on every attempt; transport ones may not.
        const permanent = code === 'LLM_COMPLETION_NOT_AUTHORIZED' || /No model configured/.test((error as Error)?.message ?? '');
        throw new ProviderCallError({
          url: 'openclaw:runtime.llm.complete',
          message: `OpenClaw's model call failed: ${(error as Error)?.message ?? String(error)}. Check the agent's model in openclaw.json, or set Strata's own llm in plugins.entries.strata.config.strata.llm.`,
          cause: error,
          isRetryable: !permanent && !call.abortSignal?.aborted,
        });
      }
      if (result.provider && result.model) model = `${result.provider}/${result.model}`;
      return {
        text: result.text ?? '',
        toolCalls: [],
        finishReason: FINISH[result.stopReason ?? 'stop'] ?? 'other',
        usage: { inputTokens: result.usage?.inputTokens ?? 0, outputTokens: result.usage?.outputTokens ?? 0 },
      };
    },
  };
}
