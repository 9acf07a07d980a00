/**
 * Serving a Web-standard fetch handler on node:http, with the rules every Strata HTTP host (REST
 * API, MCP streamable HTTP) follows: loopback by default and any other address only with a bearer
 * token; Host and Origin checks against DNS rebinding and cross-site requests; time limits for a
 * request's headers and body, so a slow client cannot hold connections open.
 */
import { createAdaptorServer } from '@hono/node-server';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { timingSafeEqual, createHash } from 'node:crypto';
import { InvalidArgumentError } from '../../errors/index.js';

import { TOKEN_ENV } from './constants.js';

export { TOKEN_ENV };

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Host headers accepted on a loopback bind (DNS-rebinding protection: a web page cannot reach the
 * server under a hostile name that resolves to 127.0.0.1). Undefined for other binds: names vary.
 */
export function loopbackHostHeaders(options: { host: string; port: number }): string[] | undefined {
  if (!isLoopbackHost(options.host)) return undefined;
  const p = options.port;
  return [...new Set([`${options.host}:${p}`, `localhost:${p}`, `127.0.0.1:${p}`, `[::1]:${p}`])];
}

/** Refuses a non-loopback bind without a token: an open memory store on the network is never a default. */
export function assertBindAllowed(options: { host: string; token?: string }): void {
  if (!isLoopbackHost(options.host) && !options.token) {
    throw new InvalidArgumentError({
      argument: '--host',
      message: `Refusing to listen on ${options.host} without a bearer token: create per-agent tokens (strata tokens create --agent <id>) or set ${TOKEN_ENV} (clients send "Authorization: Bearer <token>"), or bind to 127.0.0.1.`,
    });
  }
}

/** Constant-time check of an `Authorization: Bearer <token>` header. */
export function bearerMatches(header: string | null, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  // Hash both sides so lengths match and the comparison time does not depend on the secret.
  const a = createHash('sha256').update(match[1]!.trim()).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether a request's `Origin` may call this server. No Origin: not a browser (curl, SDKs), allowed.
 * Otherwise the page must be this server itself (Origin host = Host header) or a configured origin;
 * `null` (sandboxed frames, file: pages) never is. Browsers send Origin on every cross-site POST,
 * so a foreign page cannot make a state-changing call even when the method needs no preflight.
 */
export function originAllowed(options: { origin: string | null; host: string | null; allowed?: readonly string[] }): boolean {
  const { origin, host } = options;
  if (origin === null) return true;
  if (options.allowed?.includes(origin)) return true;
  if (origin === 'null' || !host) return false;
  try {
    return new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}

/** Time limits per request; a client slower than this is cut off (408) and its connection freed. */
export interface RequestTimeouts {
  /** Until every header has arrived. Default 10 s. */
  headersMs?: number;
  /** Until the whole request, body included, has arrived. Default 30 s. */
  requestMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<RequestTimeouts> = { headersMs: 10_000, requestMs: 30_000 };

export interface ListeningServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(options: {
  fetch: (req: Request) => Promise<Response> | Response;
  host: string;
  port: number;
  timeouts?: RequestTimeouts;
}): Promise<ListeningServer> {
  const headersTimeout = options.timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs;
  const requestTimeout = Math.max(options.timeouts?.requestMs ?? DEFAULT_TIMEOUTS.requestMs, headersTimeout);
  const serverOptions = {
    headersTimeout,
    requestTimeout,
    // Node checks both limits only this often (default 30 s, which would make them 30 s coarse).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
  const server = createAdaptorServer({ fetch: options.fetch, hostname: options.host, port: options.port, serverOptions }) as Server;
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        new InvalidArgumentError({
          argument: '--port',
          message: `Cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message} (pick another --port or stop the other server).`,
          cause: error,
        }),
      );
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Resolves on the first SIGINT or SIGTERM (long-running `serve` / `mcp --http` commands). */
export function waitForShutdown(): Promise<string> {
  return new Promise((resolve) => {
    const done = (signal: string) => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(signal);
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
