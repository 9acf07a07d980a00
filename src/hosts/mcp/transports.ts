/**
 * The two MCP transports: stdio (one server for the process) and stateless streamable HTTP (a
 * fresh server and transport per POST, as the SDK recommends for stateless mode).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  assertBindAllowed,
  bearerMatches,
  listen,
  loopbackHostHeaders,
  originAllowed,
  type ListeningServer,
  type RequestTimeouts,
} from '../shared/listen.js';
import { createMcpServer, type CreateMcpServerOptions } from './server.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Counts JSON-RPC requests received but not yet answered on a transport, so stdio can answer
 * every request a client sent before it closed stdin (e.g. `printf ... | strata mcp`).
 */
function trackPending(transport: Transport): { idle(): Promise<void> } {
  const pending = new Set<string | number>();
  let waiters: Array<() => void> = [];
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    onmessage?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if (!('method' in message) && 'id' in message && message.id !== undefined && pending.delete(message.id) && pending.size === 0) {
      waiters.forEach((w) => w());
      waiters = [];
    }
  };
  return { idle: () => (pending.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))) };
}

/** Serves MCP on stdin/stdout; resolves once the client has closed stdin and every request is answered. */
export async function runMcpStdio(
  options: CreateMcpServerOptions & { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream },
): Promise<void> {
  const server = createMcpServer(options);
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(
    stdin as ConstructorParameters<typeof StdioServerTransport>[0],
    (options.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  const pending = trackPending(transport);
  await closed;
  await pending.idle();
  await server.close().catch(() => undefined);
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) },
  });
}

export interface McpHttpOptions extends CreateMcpServerOptions {
  token?: string;
  /** Accepted Host headers (DNS-rebinding protection on loopback binds); undefined = any. */
  allowedHosts?: string[];
  /** Browser origins allowed besides the server's own (the MCP spec requires Origin validation). */
  allowedOrigins?: string[];
}

/** A fetch handler for MCP over streamable HTTP at `/mcp` (stateless, JSON responses). */
export function createMcpHttpHandler(options: McpHttpOptions): (req: Request) => Promise<Response> {
  return async (req) => {
    const path = new URL(req.url).pathname;
    if (path !== '/mcp') return jsonRpcError(404, 'Not found: the MCP endpoint is /mcp.');
    // Before the token: a web page must not even learn whether its guess was right.
    if (!originAllowed({ origin: req.headers.get('origin'), host: req.headers.get('host'), allowed: options.allowedOrigins })) {
      return jsonRpcError(403, 'Forbidden: requests from this Origin are not accepted (only the server itself and configured origins).');
    }
    if (options.token && !bearerMatches(req.headers.get('authorization'), options.token))
      return jsonRpcError(401, 'Unauthorized: send Authorization: Bearer <token>.');
    if (req.method !== 'POST') return jsonRpcError(405, 'Method not allowed.');
    const server = createMcpServer(options);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // DNS-rebinding protection: a browser page cannot reach a loopback server under another Host name.
      ...(options.allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts: options.allowedHosts } : {}),
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(req);
    } finally {
      // With JSON responses the body is complete once handleRequest resolves.
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  };
}

export async function startMcpHttp(
  options: Omit<McpHttpOptions, 'allowedHosts'> & { host: string; port: number; timeouts?: RequestTimeouts },
): Promise<ListeningServer> {
  assertBindAllowed({ host: options.host, token: options.token });
  // The port is known only after binding (port 0 picks a free one), and the Host allow-list needs it.
  const ready: { handler?: (req: Request) => Promise<Response> } = {};
  const server = await listen({
    host: options.host,
    port: options.port,
    timeouts: options.timeouts,
    fetch: (req) => (ready.handler ? ready.handler(req) : jsonRpcError(503, 'Starting up.')),
  });
  ready.handler = createMcpHttpHandler({ ...options, allowedHosts: loopbackHostHeaders({ host: options.host, port: server.port }) });
  return server;
}
