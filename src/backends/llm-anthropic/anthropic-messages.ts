import { loadApiKey, loadOptionalSetting, validateBaseURL } from '../../provider-utils/load-setting.js';
import { postJson } from '../../provider-utils/post-json.js';
import type { LlmGenerateOptions, LlmGenerateResult, LlmPricing, LlmToolCall, LlmV1 } from '../../spec/llm.js';
import { mapStopReason, messagesResponseSchema, toAnthropicRequest, toAnthropicTools, toolName } from './anthropic-messages-api.js';

/**
 * Anthropic Messages API (and compatible endpoints). Structured output uses a forced tool call
 * (`jsonMode: 'tool'`): the schema becomes the tool's `input_schema`, `tool_choice` names it, and
 * the tool input is returned as the response text.
 */
export interface AnthropicSettings {
  /** Default https://api.anthropic.com/v1. */
  baseURL?: string;
  model: string;
  apiKey?: string;
  /** Default ANTHROPIC_API_KEY. */
  apiKeyEnv?: string;
  /** Default 2023-06-01. */
  anthropicVersion?: string;
  /** Default 'tool'. */
  jsonMode?: 'tool' | 'none';
  /** The API requires max_tokens; used when a call gives none. Default 4096. */
  defaultMaxTokens?: number;
  /** Per request. Default 120 s. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  pricing?: LlmPricing;
  provider?: string;
  maxContextTokens?: number;
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';

export function createAnthropic(settings: AnthropicSettings): LlmV1 {
  const baseURL = validateBaseURL({ url: settings.baseURL ?? DEFAULT_BASE_URL, setting: 'llm.baseURL', description: 'Anthropic LLM' });
  const envVar = settings.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  const isAnthropic = new URL(baseURL).hostname === 'api.anthropic.com';
  const apiKey =
    isAnthropic || settings.apiKeyEnv !== undefined
      ? loadApiKey({ apiKey: settings.apiKey, envVar, description: 'Anthropic LLM', settingName: 'llm.apiKey' })
      : loadOptionalSetting({ settingValue: settings.apiKey, envVar });
  const jsonMode = settings.jsonMode ?? 'tool';
  const provider = settings.provider ?? 'anthropic';
  const url = `${baseURL}/messages`;
  const description = `LLM ${provider}:${settings.model}`;

  return {
    specificationVersion: 'v1',
    provider,
    modelId: settings.model,
    capabilities: {
      supportsJsonSchema: jsonMode === 'tool',
      supportsTools: true,
      ...(settings.maxContextTokens !== undefined ? { maxContextTokens: settings.maxContextTokens } : {}),
    },
    pricing: settings.pricing,
    async doGenerate(options: LlmGenerateOptions): Promise<LlmGenerateResult> {
      const { system, messages } = toAnthropicRequest(options.messages);
      const body: Record<string, unknown> = {
        model: settings.model,
        max_tokens: options.maxTokens ?? settings.defaultMaxTokens ?? 4096,
        messages,
      };
      const systemParts = system ? [system] : [];
      const format = options.responseFormat;
      const schema = format?.schema;
      // A forced tool can carry only an object schema, and not alongside the caller's own tools.
      const forcedTool =
        jsonMode === 'tool' && schema && schema.type === 'object' && !options.tools?.length ? toolName(format.name) : undefined;
      if (forcedTool && schema) {
        body.tools = [{ name: forcedTool, description: 'Return the requested output through this tool.', input_schema: schema }];
        body.tool_choice = { type: 'tool', name: forcedTool };
      } else {
        if (options.tools?.length) body.tools = toAnthropicTools(options.tools);
        if (format) {
          systemParts.push(
            'Reply with only JSON, with no prose and no code fences.' +
              (schema ? ` It must match this JSON schema: ${JSON.stringify(schema)}` : ''),
          );
        }
      }
      if (systemParts.length) body.system = systemParts.join('\n\n');
      if (options.temperature !== undefined) body.temperature = options.temperature;

      const { value } = await postJson({
        url,
        body,
        schema: messagesResponseSchema,
        headers: {
          ...settings.headers,
          'x-api-key': apiKey,
          'anthropic-version': settings.anthropicVersion ?? '2023-06-01',
        },
        timeoutMs: settings.timeoutMs ?? 120_000,
        abortSignal: options.abortSignal,
        fetch: settings.fetch,
        description,
        authHint: `Check the ${envVar} environment variable (or llm.apiKeyEnv).`,
      });

      let text = '';
      const toolCalls: LlmToolCall[] = [];
      for (const block of value.content) {
        if (block.type === 'text' && 'text' in block) text += block.text;
        else if (block.type === 'tool_use' && 'input' in block) {
          const input = (typeof block.input === 'object' && block.input !== null ? block.input : {}) as Record<string, unknown>;
          if (forcedTool && block.name === forcedTool) text = JSON.stringify(input);
          else toolCalls.push({ id: block.id, name: block.name, arguments: input });
        }
      }
      const usage = { inputTokens: value.usage?.input_tokens ?? 0, outputTokens: value.usage?.output_tokens ?? 0 };
      const finishReason = forcedTool && value.stop_reason === 'tool_use' ? 'stop' : mapStopReason(value.stop_reason);
      return { text, toolCalls, finishReason, usage };
    },
  };
}
