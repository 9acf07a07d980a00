import {
  startScriptedServer,
  type RecordedRequest as HttpRecordedRequest,
  type ScriptedReply as HttpScriptedReply,
} from './scripted-http-server.js';

/**
 * A local HTTP server speaking the OpenAI chat-completions (`/v1/chat/completions`) and Anthropic
 * Messages (`/v1/messages`) wire formats. Each request takes the next reply from a queue (or asks
 * a function), the reply is rendered in the format of the API that was called, and every request
 * is recorded. Faults: any status with headers (429 + retry-after, 500, 401), hangs that last until
 * the client gives up, and raw bodies (malformed JSON). Built on the generic scripted-http-server.
 */
export type ScriptedApi = 'openai' | 'anthropic';

export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

export type ScriptedReply = (
  | { kind: 'text'; text: string; finishReason?: 'stop' | 'length'; usage?: ScriptedUsage }
  | { kind: 'tool-calls'; calls: Array<{ id?: string; name: string; arguments: unknown }>; text?: string; usage?: ScriptedUsage }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'raw'; body: string; status?: number; contentType?: string }
  | { kind: 'hang' }
) & {
  /** Wait this long before answering (lets tests overlap calls to observe concurrency). */
  delayMs?: number;
};

export interface RecordedRequest {
  api: ScriptedApi;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: Record<string, unknown> | undefined;
  rawBody: string;
}

export type ScriptFunction = (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface ScriptedLlmServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `<url>/v1`, the base URL both client kinds expect. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Appends replies to the queue. */
  push(...replies: ScriptedReply[]): void;
  /** Requests currently being answered, and the most seen at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Requests whose client disconnected before the reply was sent. */
  readonly abandoned: number;
  close(): Promise<void>;
}

const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 10, outputTokens: 5 };

function renderOpenAI(reply: ScriptedReply, model: unknown): unknown {
  if (reply.kind === 'text') {
    const usage = reply.usage ?? DEFAULT_USAGE;
    return {
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: reply.finishReason ?? 'stop' }],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    };
  }
  if (reply.kind === 'tool-calls') {
    const usage = reply.usage ?? DEFAULT_USAGE;
    return {
      id: 'chatcmpl-scripted',
      object: 'chat.completion',
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text ?? null,
            tool_calls: reply.calls.map((call, i) => ({
              id: call.id ?? `call_${i}`,
              type: 'function',
              function: {
                name: call.name,
                arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
              },
            })),
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    };
  }
  return undefined;
}

function renderAnthropic(reply: ScriptedReply, model: unknown): unknown {
  if (reply.kind !== 'text' && reply.kind !== 'tool-calls') return undefined;
  const usage = reply.usage ?? DEFAULT_USAGE;
  const text = reply.text ? [{ type: 'text', text: reply.text }] : [];
  const content =
    reply.kind === 'text'
      ? [{ type: 'text', text: reply.text }]
      : [
          ...text,
          ...reply.calls.map((call, i) => ({ type: 'tool_use', id: call.id ?? `toolu_${i}`, name: call.name, input: call.arguments })),
        ];
  const stopReason = reply.kind === 'tool-calls' ? 'tool_use' : reply.finishReason === 'length' ? 'max_tokens' : 'end_turn';
  return {
    id: 'msg_scripted',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

export async function startScriptedLlmServer(options: { script?: ScriptedReply[] | ScriptFunction } = {}): Promise<ScriptedLlmServer> {
  const queue: ScriptedReply[] = Array.isArray(options.script) ? [...options.script] : [];
  const scriptFn = typeof options.script === 'function' ? options.script : undefined;
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const answer =
    (api: ScriptedApi) =>
    async (request: HttpRecordedRequest): Promise<HttpScriptedReply> => {
      const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : undefined;
      const recorded: RecordedRequest = {
        api,
        method: request.method,
        path: request.path,
        headers: request.headers,
        body,
        rawBody: request.rawBody,
      };
      const index = requests.length;
      requests.push(recorded);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const reply = scriptFn ? await scriptFn(recorded, index) : queue.shift();
        // 418 is not retryable, so an exhausted script fails the test instead of looping.
        if (!reply) return { status: 418, json: { error: { message: `scripted LLM server: no reply left for request #${index}` } } };
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        switch (reply.kind) {
          case 'hang':
            return { hang: true };
          case 'status':
            return {
              status: reply.status,
              headers: reply.headers,
              json: reply.body ?? { error: { message: `scripted status ${reply.status}` } },
            };
          case 'raw':
            return { status: reply.status ?? 200, body: reply.body, headers: { 'content-type': reply.contentType ?? 'application/json' } };
          default:
            return { json: api === 'openai' ? renderOpenAI(reply, body?.model) : renderAnthropic(reply, body?.model) };
        }
      } finally {
        inFlight--;
      }
    };

  const server = await startScriptedServer({
    routes: { 'POST /v1/chat/completions': answer('openai'), 'POST /v1/messages': answer('anthropic') },
  });

  return {
    url: server.url,
    baseURL: `${server.url}/v1`,
    requests,
    push: (...replies) => void queue.push(...replies),
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get abandoned() {
      return server.abandoned;
    },
    close: () => server.close(),
  };
}
