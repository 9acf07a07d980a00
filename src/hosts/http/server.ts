/** Starts the REST API on node:http with the bind rule (loopback, or a token), Host checks and request time limits. */
import { createHttpHandler, type HttpHandlerOptions } from './api.js';
import { assertBindAllowed, listen, loopbackHostHeaders, type ListeningServer, type RequestTimeouts } from '../shared/listen.js';

export interface StartHttpServerOptions extends Omit<HttpHandlerOptions, 'allowedHosts'> {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  timeouts?: RequestTimeouts;
}

export async function startHttpServer(options: StartHttpServerOptions): Promise<ListeningServer> {
  // A per-agent token counts as a token: once one exists, every request must carry one.
  const hasTokens = Boolean(options.token) || (options.tokens ? await options.tokens.hasActive() : false);
  assertBindAllowed({ host: options.host, token: hasTokens ? 'configured' : undefined });
  // Host allow-list needs the bound port, known only after listening.
  const ready: { handler?: (req: Request) => Promise<Response> } = {};
  const server = await listen({
    host: options.host,
    port: options.port,
    timeouts: options.timeouts,
    fetch: (req) => (ready.handler ? ready.handler(req) : new Response(null, { status: 503 })),
  });
  const { host: _h, port: _p, timeouts: _t, ...rest } = options;
  ready.handler = createHttpHandler({ ...rest, allowedHosts: loopbackHostHeaders({ host: options.host, port: server.port }) });
  return server;
}
