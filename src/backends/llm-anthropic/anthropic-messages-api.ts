import { z } from 'zod';
import type { LlmFinishReason, LlmMessage, LlmToolDefinition } from '../../spec/llm.js';

/** Wire shapes of `POST /messages`, keeping only the fields the adapter reads. */
export const messagesResponseSchema = z.object({
  content: z.array(
    z.union([
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
      z.object({ type: z.string() }), // thinking and future block kinds are ignored
    ]),
  ),
  stop_reason: z.string().nullish(),
  usage: z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).nullish(),
});
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;

type Block = Record<string, unknown>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/**
 * System messages become the top-level `system` field; tool results travel as `tool_result`
 * blocks in a user turn; consecutive turns of one role are merged, as the API expects
 * alternating roles.
 */
export function toAnthropicRequest(messages: LlmMessage[]): { system: string | undefined; messages: WireMessage[] } {
  const system: string[] = [];
  const out: WireMessage[] = [];
  const push = (role: WireMessage['role'], blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        push('user', [{ type: 'text', text: message.content }]);
        break;
      case 'assistant': {
        const blocks: Block[] = message.content ? [{ type: 'text', text: message.content }] : [];
        for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        push('assistant', blocks);
        break;
      }
      case 'tool':
        push('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content: message.content,
            ...(message.isError ? { is_error: true } : {}),
          },
        ]);
        break;
    }
  }
  return { system: system.length ? system.join('\n\n') : undefined, messages: out };
}

export function toAnthropicTools(tools: LlmToolDefinition[]): Block[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

export function mapStopReason(reason: string | null | undefined): LlmFinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Anthropic tool names: `^[a-zA-Z0-9_-]{1,64}$`. */
export function toolName(name: string | undefined): string {
  const cleaned = (name ?? 'json_output').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned || 'json_output';
}
