import { z } from 'zod';
import type { LlmFinishReason, LlmMessage, LlmToolDefinition } from '../../spec/llm.js';

/** Wire shapes of `POST /chat/completions`, keeping only the fields the adapter reads. */
export const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish() }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() }).nullish(),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export function toOpenAIMessages(messages: LlmMessage[]): unknown[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        return message.toolCalls?.length
          ? {
              role: 'assistant',
              content: message.content === '' ? null : message.content,
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : { role: 'assistant', content: message.content };
      case 'tool':
        return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

export function toOpenAITools(tools: LlmToolDefinition[]): unknown[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

export function mapFinishReason(reason: string | null | undefined): LlmFinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** OpenAI restricts `json_schema.name` to `[a-zA-Z0-9_-]{1,64}`. */
export function schemaName(name: string | undefined): string {
  const cleaned = (name ?? 'output').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'output';
}

/** A short provider label from the base URL, so usage logs say `ollama` rather than `openai`. */
export function providerLabel(baseURL: string): string {
  const { hostname, port } = new URL(baseURL);
  if (hostname.endsWith('openai.com')) return 'openai';
  if (hostname.endsWith('deepseek.com')) return 'deepseek';
  if (hostname.endsWith('openrouter.ai')) return 'openrouter';
  if (port === '11434') return 'ollama';
  if (port === '1234') return 'lmstudio';
  return 'openai-compatible';
}
