import { ProviderCallError } from '../../errors/index.js';
import { loadApiKey, loadOptionalSetting, validateBaseURL } from '../../provider-utils/load-setting.js';
import { isLoopbackURL } from '../../provider-utils/local-url.js';
import { postJson } from '../../provider-utils/post-json.js';
import type { LlmGenerateOptions, LlmGenerateResult, LlmPricing, LlmToolCall, LlmV1 } from '../../spec/llm.js';
import {
  chatCompletionSchema,
  mapFinishReason,
  providerLabel,
  schemaName,
  toOpenAIMessages,
  toOpenAITools,
  type ChatCompletion,
} from './openai-chat-api.js';

/**
 * OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, DeepSeek, OpenRouter, LM Studio, ...).
 * Structured output depends on the server: `json_schema` (OpenAI, vLLM, Ollama >= 0.5, LM Studio),
 * `json_object` (DeepSeek and older servers) or `none` (prompting only).
 */
export interface OpenAIChatSettings {
  /** Default https://api.openai.com/v1. */
  baseURL?: string;
  model: string;
  /** Explicit key; otherwise read from `apiKeyEnv`. */
  apiKey?: string;
  /** Default OPENAI_API_KEY. Required for api.openai.com; optional for local servers. */
  apiKeyEnv?: string;
  /** Default 'json_schema'. */
  jsonMode?: 'json_schema' | 'json_object' | 'none';
  /** Per request. Default 120 s. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** USD per million tokens. */
  pricing?: LlmPricing;
  /** Label in usage logs; default derived from the base URL (`openai`, `ollama`, ...). */
  provider?: string;
  /** Default true; set false for servers that reject `tools`. */
  supportsTools?: boolean;
  maxContextTokens?: number;
  /** Newer OpenAI reasoning models accept only `max_completion_tokens`. Default 'max_tokens'. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function createOpenAIChat(settings: OpenAIChatSettings): LlmV1 {
  const baseURL = validateBaseURL({
    url: settings.baseURL ?? DEFAULT_BASE_URL,
    setting: 'llm.baseURL',
    description: 'OpenAI-compatible LLM',
  });
  const envVar = settings.apiKeyEnv ?? 'OPENAI_API_KEY';
  const isOpenAI = new URL(baseURL).hostname === 'api.openai.com';
  // Local servers (Ollama, vLLM, LM Studio) need no key; a configured env var or OpenAI itself does.
  const apiKey =
    isOpenAI || (settings.apiKeyEnv !== undefined && !isLoopbackURL(baseURL))
      ? loadApiKey({ apiKey: settings.apiKey, envVar, description: 'OpenAI-compatible LLM', settingName: 'llm.apiKey' })
      : loadOptionalSetting({ settingValue: settings.apiKey, envVar });
  const jsonMode = settings.jsonMode ?? 'json_schema';
  const provider = settings.provider ?? providerLabel(baseURL);
  const url = `${baseURL}/chat/completions`;
  const description = `LLM ${provider}:${settings.model}`;

  function responseFormat(options: LlmGenerateOptions): unknown {
    const format = options.responseFormat;
    if (!format || jsonMode === 'none') return undefined;
    if (jsonMode === 'json_schema' && format.schema) {
      // strict: false, because strict mode rejects optional properties, which zod schemas use.
      return { type: 'json_schema', json_schema: { name: schemaName(format.name), schema: format.schema, strict: false } };
    }
    return { type: 'json_object' };
  }

  function toolCallsOf(completion: ChatCompletion): LlmToolCall[] {
    const calls = completion.choices[0]?.message.tool_calls ?? [];
    return calls.map((call, index) => {
      const raw = call.function.arguments;
      let args: unknown = raw ?? {};
      if (typeof raw === 'string') {
        try {
          args = raw.trim() === '' ? {} : JSON.parse(raw);
        } catch (cause) {
          throw new ProviderCallError({
            url,
            cause,
            isRetryable: true,
            responseBody: raw.slice(0, 2000),
            message: `${description} returned arguments for tool "${call.function.name}" that are not JSON.`,
          });
        }
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw new ProviderCallError({
          url,
          isRetryable: true,
          message: `${description} returned non-object arguments for tool "${call.function.name}".`,
        });
      }
      return { id: call.id ?? `call_${index}`, name: call.function.name, arguments: args as Record<string, unknown> };
    });
  }

  return {
    specificationVersion: 'v1',
    provider,
    modelId: settings.model,
    capabilities: {
      supportsJsonSchema: jsonMode === 'json_schema',
      supportsTools: settings.supportsTools ?? true,
      ...(settings.maxContextTokens !== undefined ? { maxContextTokens: settings.maxContextTokens } : {}),
    },
    pricing: settings.pricing,
    async doGenerate(options: LlmGenerateOptions): Promise<LlmGenerateResult> {
      const body: Record<string, unknown> = { model: settings.model, messages: toOpenAIMessages(options.messages) };
      if (options.tools?.length) body.tools = toOpenAITools(options.tools);
      const format = responseFormat(options);
      if (format) body.response_format = format;
      if (options.maxTokens !== undefined) body[settings.maxTokensField ?? 'max_tokens'] = options.maxTokens;
      if (options.temperature !== undefined) body.temperature = options.temperature;
      const { value } = await postJson({
        url,
        body,
        schema: chatCompletionSchema,
        headers: { ...settings.headers, authorization: apiKey ? `Bearer ${apiKey}` : undefined },
        timeoutMs: settings.timeoutMs ?? 120_000,
        abortSignal: options.abortSignal,
        fetch: settings.fetch,
        description,
        authHint: `Check the ${envVar} environment variable (or llm.apiKeyEnv).`,
      });
      const choice = value.choices[0];
      const toolCalls = toolCallsOf(value);
      return {
        text: choice?.message.content ?? '',
        toolCalls,
        finishReason: toolCalls.length > 0 ? 'tool-calls' : mapFinishReason(choice?.finish_reason),
        usage: { inputTokens: value.usage?.prompt_tokens ?? 0, outputTokens: value.usage?.completion_tokens ?? 0 },
      };
    },
  };
}
