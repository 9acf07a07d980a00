/**
 * Tool calling over a plain-text model: for an LLM whose endpoint has no tool calls (OpenClaw's
 * `api.runtime.llm.complete`), the tools are described in the system prompt and the model answers
 * a turn that acts with one JSON object, `{"tool_calls":[{"name":..., "arguments":{...}}]}`. The
 * wrapper turns that object into ordinary `toolCalls`, so the caller's loop (the organiser's
 * `runAgentLoop`) runs unchanged: every action still goes through the same sandboxed tools, with
 * the same turn, call and time bounds. Calls without tools pass through untouched.
 */
import { extractJsonText } from '../llm/json-text.js';
import type { LlmGenerateOptions, LlmGenerateResult, LlmMessage, LlmToolCall, LlmToolDefinition, LlmV1 } from '../../spec/llm.js';

export const TEXT_TOOL_PROTOCOL_HEADING = '## Tools (text protocol)';

export function textToolInstructions(tools: LlmToolDefinition[]): string {
  const list = tools.map((t) => `- ${t.name}: ${t.description}\n  arguments (JSON schema): ${JSON.stringify(t.parameters)}`).join('\n');
  return [
    TEXT_TOOL_PROTOCOL_HEADING,
    'This conversation has no native tool calling. To act, reply with exactly one JSON object and nothing else:',
    '{"tool_calls":[{"name":"<tool name>","arguments":{...}}]}',
    'You may put several calls in the list; they run in order. Their results come back in the next user message,',
    'one "Result of <tool> (<call id>)" block per call. When you are done, reply with plain text and no "tool_calls" object.',
    '',
    'Tools:',
    list,
  ].join('\n');
}

/** The conversation as text turns: earlier calls as the JSON the model wrote, results as user text. */
export function textToolMessages(messages: LlmMessage[], tools: LlmToolDefinition[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  const instructions = textToolInstructions(tools);
  const firstSystem = messages.findIndex((m) => m.role === 'system');
  if (firstSystem < 0) out.push({ role: 'system', content: instructions });
  messages.forEach((m, i) => {
    if (m.role === 'system') {
      out.push({ role: 'system', content: i === firstSystem ? `${m.content}\n\n${instructions}` : m.content });
    } else if (m.role === 'assistant') {
      const calls = m.toolCalls?.length
        ? JSON.stringify({ tool_calls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) })
        : '';
      out.push({ role: 'assistant', content: [m.content, calls].filter(Boolean).join('\n') });
    } else if (m.role === 'tool') {
      const block = `Result of ${m.toolName ?? 'tool'} (${m.toolCallId})${m.isError ? ' [error]' : ''}:\n${m.content}`;
      const last = out.at(-1);
      // One user message per batch of results: some endpoints refuse two user turns in a row.
      if (last?.role === 'user' && last.content.startsWith('Result of ')) last.content += `\n\n${block}`;
      else out.push({ role: 'user', content: block });
    } else {
      out.push(m);
    }
  });
  return out;
}

const FENCED = /```(?:json|JSON|jsonc)?\s*\n?([\s\S]*?)```/g;

/** The reply's first JSON value and the span it takes (with its code fence, when fenced). */
function firstJson(text: string): { value: unknown; span: string } | undefined {
  const slice = extractJsonText(text);
  if (slice === undefined) return undefined;
  const fence = [...text.matchAll(FENCED)].find((m) => m[1]!.includes(slice));
  return { value: JSON.parse(slice) as unknown, span: fence ? fence[0] : slice };
}

/** Tool calls in a text reply, and the prose around them (kept: the organiser reads signals from it). */
export function parseTextToolCalls(text: string, turnTag: string): { calls: LlmToolCall[]; prose: string } {
  const none = { calls: [], prose: text };
  const found = firstJson(text);
  const list = (found?.value as { tool_calls?: unknown } | null | undefined)?.tool_calls;
  if (!found || !Array.isArray(list)) return none;
  const calls: LlmToolCall[] = [];
  list.forEach((raw, i) => {
    const item = raw as { name?: unknown; arguments?: unknown } | null;
    if (typeof item?.name !== 'string' || !item.name) return;
    calls.push({ id: `call_${turnTag}_${i}`, name: item.name, arguments: argumentsOf(item.arguments) });
  });
  if (calls.length === 0) return none;
  const at = text.indexOf(found.span);
  return { calls, prose: `${text.slice(0, at)}${text.slice(at + found.span.length)}`.trim() };
}

/** Arguments as an object: models sometimes send the JSON as a string, as native tool APIs do. */
function argumentsOf(raw: unknown): Record<string, unknown> {
  let args = raw;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return {};
    }
  }
  return args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** `llm` with tool calling through the text protocol (an LLM that has native tools is returned as it is). */
export function withTextToolProtocol(llm: LlmV1): LlmV1 {
  if (llm.capabilities.supportsTools) return llm;
  let turns = 0;
  return {
    specificationVersion: 'v1',
    get provider() {
      return llm.provider;
    },
    get modelId() {
      return llm.modelId;
    },
    capabilities: { ...llm.capabilities, supportsTools: true },
    ...(llm.pricing ? { pricing: llm.pricing } : {}),
    async doGenerate(call: LlmGenerateOptions): Promise<LlmGenerateResult> {
      const tools = call.tools ?? [];
      if (tools.length === 0) return llm.doGenerate(call);
      const { tools: _native, ...rest } = call;
      const result = await llm.doGenerate({ ...rest, messages: textToolMessages(call.messages, tools) });
      const { calls, prose } = parseTextToolCalls(result.text, String(++turns));
      if (calls.length === 0) return result;
      return { ...result, text: prose, toolCalls: calls, finishReason: 'tool-calls' };
    },
  };
}
