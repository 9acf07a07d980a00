import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A generic local HTTP server for tests (127.0.0.1, random port). Each route answers from a
 * script: a queue of replies consumed in order, a single reply repeated, or a function of the
 * request. Every request is recorded (method, path, lower-cased headers, parsed JSON body, time
 * received). Faults: any status and headers (429 + retry-after, 500), delays, hangs that last
 * until the client gives up, raw (malformed) bodies, dropped connections and chunked streams
 * (SSE) for streaming APIs.
 */
export type ScriptedReply =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** Sent as JSON. */
      json?: unknown;
      /** Sent as-is (e.g. malformed JSON); content-type defaults to application/json. */
      body?: string;
      /** Written one by one, `chunkDelayMs` apart (server-sent events, NDJSON). */
      chunks?: string[];
      chunkDelayMs?: number;
      /** Wait before answering. */
      delayMs?: number;
    }
  /** Never answer: the request stays open until the client aborts or the server closes. */
  | { hang: true }
  /** Close the socket without an answer (a network error for the client). */
  | { destroy: true };

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
  rawBody: string;
  /** `performance.now()` when the request was fully received. */
  receivedAt: number;
  /** 0-based count of earlier requests to the same route. */
  routeCallIndex: number;
}

export type ScriptFunction = (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
/**
 * An array is a queue whose entries are replies or functions (e.g. `[429 reply, normalScript]`);
 * a request past its end gets a 500 naming the route. A single reply or function answers every call.
 */
export type RouteScript = ScriptedReply | ScriptFunction | Array<ScriptedReply | ScriptFunction>;

export interface ScriptedServerOptions {
  /** Keys are `"/path"` (any method) or `"POST /path"`. */
  routes: Record<string, RouteScript>;
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  requests: RecordedRequest[];
  /** Recorded requests whose path equals `path`. */
  requestsTo(path: string): RecordedRequest[];
  /** Replaces or adds a route script (its call count restarts at 0). */
  setRoute(key: string, script: RouteScript): void;
  /** Requests whose client went away before the answer was complete. */
  readonly abandoned: number;
  close(): Promise<void>;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const routes = new Map<string, RouteScript>(Object.entries(options.routes));
  const callCounts = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let abandoned = 0;

  function findRoute(method: string, path: string): string | undefined {
    const exact = `${method} ${path}`;
    if (routes.has(exact)) return exact;
    return routes.has(path) ? path : undefined;
  }

  async function replyFor(key: string, script: RouteScript, request: RecordedRequest): Promise<ScriptedReply> {
    const entry = Array.isArray(script) ? script[request.routeCallIndex] : script;
    if (entry === undefined)
      return { status: 500, json: { error: `scripted server: no reply left for ${key} (call ${request.routeCallIndex + 1})` } };
    return typeof entry === 'function' ? entry(request) : entry;
  }

  async function send(reply: ScriptedReply, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ('hang' in reply) return; // answered never; the socket is destroyed on close()
    if ('destroy' in reply) {
      req.socket.destroy();
      return;
    }
    if (reply.delayMs) await wait(reply.delayMs);
    if (res.destroyed) return;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...reply.headers };
    res.writeHead(reply.status ?? 200, headers);
    if (reply.chunks) {
      for (const chunk of reply.chunks) {
        if (res.destroyed) return;
        res.write(chunk);
        if (reply.chunkDelayMs) await wait(reply.chunkDelayMs);
      }
      res.end();
      return;
    }
    res.end(reply.body ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
  }

  const server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) abandoned++;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const key = findRoute(method, url.pathname);
      const routeCallIndex = key === undefined ? 0 : (callCounts.get(key) ?? 0);
      if (key !== undefined) callCounts.set(key, routeCallIndex + 1);
      const recorded: RecordedRequest = {
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: headersOf(req),
        body: parseJson(rawBody),
        rawBody,
        receivedAt: performance.now(),
        routeCallIndex,
      };
      requests.push(recorded);
      const script = key === undefined ? undefined : routes.get(key);
      const replyPromise =
        script === undefined || key === undefined
          ? Promise.resolve<ScriptedReply>({ status: 404, json: { error: `scripted server: no route for ${method} ${url.pathname}` } })
          : replyFor(key, script, recorded);
      replyPromise
        .then((reply) => send(reply, req, res))
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: `scripted server: script threw: ${(error as Error).message}` }));
        });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    setRoute(key, script) {
      routes.set(key, script);
      callCounts.delete(key);
    },
    get abandoned() {
      return abandoned;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
