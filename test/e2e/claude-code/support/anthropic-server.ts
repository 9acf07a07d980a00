/**
 * A scripted Anthropic Messages API for real Claude Code on 127.0.0.1: every `POST /v1/messages`
 * is recorded and answered by a script function of the request, streamed as server-sent events
 * when the request asks for `stream: true` (Claude Code always does for the main loop) and as
 * plain JSON otherwise. Turns are text or tool_use, so the model can call Strata's MCP tools.
 */
import { startScriptedServer, type RecordedRequest as HttpRequest, type ScriptedServer } from '../../../support/scripted-http-server.js';

export type Turn = { kind: 'text'; text: string } | { kind: 'tool_use'; name: string; input: Record<string, unknown>; text?: string };

export interface MessagesRequest {
  index: number;
  body: Record<string, unknown>;
  rawBody: string;
  headers: Record<string, string>;
  /** Text of every user message block (tool results included), in order. */
  userTexts: string[];
  /** The last user message's plain text blocks (not tool results). */
  lastUserText: string;
  /** The system prompt as one string. */
  system: string;
  /** Tool names offered to the model. */
  tools: string[];
  /** tool_result blocks of the last user message, by tool_use id. */
  toolResults: Array<{ toolUseId: string; text: string }>;
  /** Tool names called in the last assistant message (the calls `toolResults` answer). */
  lastToolUses: string[];
  /** Every tool name called so far in this conversation, in order. */
  toolUses: string[];
  stream: boolean;
}

export interface AnthropicServer {
  url: string;
  requests: MessagesRequest[];
  http: ScriptedServer;
  close(): Promise<void>;
}

type Block = Record<string, unknown>;

function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (typeof block !== 'object' || block === null) return '';
  const b = block as Block;
  if (typeof b.text === 'string') return b.text;
  if (b.type === 'tool_result') return Array.isArray(b.content) ? b.content.map(blockText).join('\n') : blockText(b.content);
  return '';
}

function contentBlocks(content: unknown): unknown[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
}

export function parseMessagesRequest(request: HttpRequest, index: number): MessagesRequest {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const users = messages.filter((m) => m.role === 'user');
  const last = users.at(-1);
  const lastBlocks = contentBlocks(last?.content) as Block[];
  const assistants = messages.filter((m) => m.role === 'assistant');
  const toolUsesOf = (m: { content?: unknown } | undefined) =>
    (contentBlocks(m?.content) as Block[]).filter((b) => b.type === 'tool_use').map((b) => String(b.name));
  const system = Array.isArray(body.system) ? body.system.map(blockText).join('\n') : typeof body.system === 'string' ? body.system : '';
  return {
    index,
    body,
    rawBody: request.rawBody,
    headers: request.headers,
    userTexts: users.flatMap((m) => contentBlocks(m.content).map(blockText)),
    lastUserText: lastBlocks
      .filter((b) => b.type === 'text')
      .map(blockText)
      .join('\n'),
    system,
    tools: Array.isArray(body.tools) ? (body.tools as Block[]).map((t) => String(t.name)) : [],
    lastToolUses: toolUsesOf(assistants.at(-1)),
    toolUses: assistants.flatMap(toolUsesOf),
    toolResults: lastBlocks.filter((b) => b.type === 'tool_result').map((b) => ({ toolUseId: String(b.tool_use_id), text: blockText(b) })),
    stream: body.stream === true,
  };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function contentOf(turn: Turn, id: string): Block[] {
  if (turn.kind === 'text') return [{ type: 'text', text: turn.text }];
  return [...(turn.text ? [{ type: 'text', text: turn.text }] : []), { type: 'tool_use', id, name: turn.name, input: turn.input }];
}

/** The SSE event sequence of one message, split the way the real API splits it. */
export function streamEvents(turn: Turn, model: string, n: number): string[] {
  const id = `msg_scripted_${n}`;
  const stopReason = turn.kind === 'tool_use' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const events = [
    sse('message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
    }),
  ];
  contentOf(turn, `toolu_scripted_${n}`).forEach((block, index) => {
    if (block.type === 'text') {
      events.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      const text = String(block.text);
      for (let i = 0; i < text.length; i += 40) {
        events.push(
          sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: text.slice(i, i + 40) } }),
        );
      }
    } else {
      events.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      events.push(
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } }),
  );
  events.push(sse('message_stop', { type: 'message_stop' }));
  return events;
}

export async function startAnthropicServer(options: { script: (request: MessagesRequest) => Turn }): Promise<AnthropicServer> {
  const requests: MessagesRequest[] = [];
  const answer = (request: HttpRequest) => {
    const parsed = parseMessagesRequest(request, requests.length);
    requests.push(parsed);
    const model = typeof parsed.body.model === 'string' ? parsed.body.model : 'claude-scripted';
    const turn = options.script(parsed);
    if (!parsed.stream) {
      const stopReason = turn.kind === 'tool_use' ? 'tool_use' : 'end_turn';
      return {
        json: {
          id: `msg_scripted_${parsed.index}`,
          type: 'message',
          role: 'assistant',
          model,
          content: contentOf(turn, `toolu_scripted_${parsed.index}`),
          stop_reason: stopReason,
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 20 },
        },
      };
    }
    return {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      chunks: streamEvents(turn, model, parsed.index),
    };
  };
  const http = await startScriptedServer({
    routes: {
      'POST /v1/messages': answer,
      // Claude Code counts tokens for large inputs; any plausible number will do.
      'POST /v1/messages/count_tokens': { json: { input_tokens: 100 } },
    },
  });
  return { url: http.url, requests, http, close: () => http.close() };
}
