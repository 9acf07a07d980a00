/**
 * The two MCP transports: stdio (one server for the process) and stateless streamable HTTP (a
 * fresh server and transport per POST, as the SDK recommends for stateless mode).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { assertBindAllowed, bearerMatches, listen, loopbackHostHeaders, type ListeningServer } from '../http/listen.js';
import { createMcpServer, type CreateMcpServerOptions } from './server.js';

/** Serves MCP on stdin/stdout; resolves when the client disconnects (stdin closes). */
export async function runMcpStdio(options: CreateMcpServerOptions & { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream }): Promise<void> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport(
    (options.stdin ?? process.stdin) as ConstructorParameters<typeof StdioServerTransport>[0],
    (options.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    (options.stdin ?? process.stdin).once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) },
  });
}

/** A fetch handler for MCP over streamable HTTP at `/mcp` (stateless, JSON responses). */
export function createMcpHttpHandler(options: CreateMcpServerOptions & { token?: string; allowedHosts?: string[] }): (req: Request) => Promise<Response> {
  return async (req) => {
    const path = new URL(req.url).pathname;
    if (path !== '/mcp') return jsonRpcError(404, 'Not found: the MCP endpoint is /mcp.');
    if (options.token && !bearerMatches(req.headers.get('authorization'), options.token)) return jsonRpcError(401, 'Unauthorized: send Authorization: Bearer <token>.');
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

export async function startMcpHttp(options: CreateMcpServerOptions & { host: string; port: number; token?: string }): Promise<ListeningServer> {
  assertBindAllowed({ host: options.host, token: options.token });
  // The port is known only after binding (port 0 picks a free one), and the Host allow-list needs it.
  const ready: { handler?: (req: Request) => Promise<Response> } = {};
  const server = await listen({ host: options.host, port: options.port, fetch: (req) => (ready.handler ? ready.handler(req) : jsonRpcError(503, 'Starting up.')) });
  ready.handler = createMcpHttpHandler({ ...options, allowedHosts: loopbackHostHeaders({ host: options.host, port: server.port }) });
  return server;
}
