/**
 * A scripted OpenAI-compatible model server on 127.0.0.1 for the host suites. Real hosts stream
 * (`stream: true` on /v1/chat/completions, server-sent events with `chat.completion.chunk`s and
 * `[DONE]`), so replies are rendered as SSE when the request asks for it and as one JSON body
 * otherwise. A policy function decides each reply from the request (its messages and tools), so a
 * test can tell a host's agent turn from a distillation call without relying on their order.
 * Every request is recorded with its parsed body.
 */
import {
  startScriptedServer,
  type RecordedRequest as HttpRequest,
  type ScriptedReply as HttpReply,
} from '../../support/scripted-http-server.js';

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

export interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

export type ModelReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; arguments: unknown; id?: string }>; text?: string }
  | { status: number; message?: string };

export type ModelPolicy = (request: ChatRequest, index: number) => ModelReply | Promise<ModelReply>;

export interface ModelServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Chat requests in arrival order. */
  requests: ChatRequest[];
  setPolicy(policy: ModelPolicy): void;
  close(): Promise<void>;
}

/** Plain text of a message's content (string or `[{type:'text', text}]` parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .join('');
}

/** The system prompt(s) of a request (`system` or `developer` role), joined. */
export function systemText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => contentText(m.content))
    .join('\n');
}

/** Every user message's text, joined. */
export function userText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === 'user')
    .map((m) => contentText(m.content))
    .join('\n');
}

export function lastMessage(request: ChatRequest): ChatMessage | undefined {
  return request.messages[request.messages.length - 1];
}

const usage = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };

function sse(request: ChatRequest, reply: Exclude<ModelReply, { status: number }>): string[] {
  const base = {
    id: 'chatcmpl-e2e',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'scripted',
  };
  const chunk = (delta: unknown, finish: string | null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '' }, null)];
  if ('toolCalls' in reply) {
    if (reply.text) out.push(chunk({ content: reply.text }, null));
    reply.toolCalls.forEach((call, index) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      out.push(
        chunk(
          {
            tool_calls: [
              { index, id: call.id ?? `call_${index}_${Date.now()}`, type: 'function', function: { name: call.name, arguments: args } },
            ],
          },
          null,
        ),
      );
    });
    out.push(chunk({}, 'tool_calls', { usage }));
  } else {
    // Two pieces, so a client that only handles a single delta would be caught.
    const half = Math.ceil(reply.text.length / 2);
    out.push(chunk({ content: reply.text.slice(0, half) }, null));
    if (half < reply.text.length) out.push(chunk({ content: reply.text.slice(half) }, null));
    out.push(chunk({}, 'stop', { usage }));
  }
  out.push('data: [DONE]\n\n');
  return out;
}

function json(request: ChatRequest, reply: Exclude<ModelReply, { status: number }>): unknown {
  const message =
    'toolCalls' in reply
      ? {
          role: 'assistant',
          content: reply.text ?? null,
          tool_calls: reply.toolCalls.map((c, i) => ({
            id: c.id ?? `call_${i}`,
            type: 'function',
            function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
          })),
        }
      : { role: 'assistant', content: reply.text };
  return {
    id: 'chatcmpl-e2e',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'scripted',
    choices: [{ index: 0, message, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
    usage,
  };
}

export async function startModelServer(options: { policy?: ModelPolicy; modelId?: string } = {}): Promise<ModelServer> {
  let policy: ModelPolicy = options.policy ?? (() => ({ text: 'ok' }));
  const requests: ChatRequest[] = [];
  const chat = async (req: HttpRequest): Promise<HttpReply> => {
    const body = (req.body ?? { messages: [] }) as ChatRequest;
    if (!Array.isArray(body.messages)) body.messages = [];
    const index = requests.length;
    requests.push(body);
    let reply: ModelReply;
    try {
      reply = await policy(body, index);
    } catch (error) {
      reply = { status: 500, message: `policy threw: ${(error as Error).message}` };
    }
    if ('status' in reply)
      return { status: reply.status, json: { error: { message: reply.message ?? `scripted status ${reply.status}`, type: 'scripted' } } };
    if (body.stream) return { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, chunks: sse(body, reply) };
    return { json: json(body, reply) };
  };
  const modelId = options.modelId ?? 'scripted-model';
  const server = await startScriptedServer({
    routes: {
      'POST /v1/chat/completions': chat,
      'GET /v1/models': { json: { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'e2e' }] } },
    },
  });
  return {
    baseURL: `${server.url}/v1`,
    requests,
    setPolicy(p) {
      policy = p;
    },
    close: () => server.close(),
  };
}
