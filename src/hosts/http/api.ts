/**
 * The Strata REST API as a Web-standard fetch handler (hono). The server acts as one configured
 * caller: requests may narrow to some of its scopes, never widen them. Every request from a browser
 * page other than this server's own (or a configured CORS origin) is refused, and every
 * state-changing request must be JSON or carry `X-Strata-Request`, so a cross-site form or a
 * "simple" fetch can never change a memory.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Strata } from '../../strata.js';
import type { CallerOperations } from '../../core/ops/index.js';
import { resolveCaller, type Caller } from '../../core/caller.js';
import type { TokenRegistry } from '../../remote/tokens.js';
import { originAllowed } from '../shared/listen.js';
import { createAuthenticator } from './auth.js';
import { errorBody, HttpError, toHttpError } from './errors.js';
import { registerInspectorAssets } from './inspector-assets.js';
import { registerRoutes } from './routes.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The header a non-JSON state-changing request must send (browsers cannot add it cross-site without a preflight). */
export const REQUEST_HEADER = 'x-strata-request';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface HttpHandlerOptions {
  /** An opened `Strata`; the handler never closes it. */
  strata: Strata;
  /** Who the server acts as; default: the configured agent (`STRATA_AGENT_ID`, `scopes.defaultAgent`), else `global` only. */
  caller?: Caller;
  /** When set, every request must send `Authorization: Bearer <token>` (this one acts as `caller`). */
  token?: string;
  /**
   * Per-agent tokens (`strata tokens create`): a request carrying one acts as that token's agent.
   * Once any unrevoked token exists, a request without a token is refused.
   */
  tokens?: TokenRegistry;
  /** Off unless given: the origins allowed to call the API from a browser. */
  cors?: { origins: string[] };
  /** Default 1 MB; larger bodies get 413. */
  maxBodyBytes?: number;
  /** Accepted Host headers (DNS-rebinding protection on loopback binds); undefined = any. */
  allowedHosts?: string[];
  /** Serve the web inspector at `/` (default true; its API calls follow the same token rule). */
  inspector?: boolean;
}

export function createHttpHandler(options: HttpHandlerOptions): (req: Request) => Promise<Response> {
  const caller = options.caller ?? resolveCaller({ config: options.strata.config });
  const authenticate = createAuthenticator({ strata: options.strata, caller, token: options.token, tokens: options.tokens });
  // Keyed by the request's context: middleware (bodyLimit) may replace c.req.raw on the way.
  const views = new WeakMap<Context, CallerOperations>();
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const app = new Hono();
  app.onError((error, c) => {
    const { status, body } = toHttpError(error);
    if (status === 401) c.header('www-authenticate', 'Bearer');
    return c.json(body, status);
  });
  app.notFound((c) =>
    c.json(errorBody('NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}; the API lives under /api/v1.`), 404),
  );
  if (options.allowedHosts) {
    const hosts = options.allowedHosts;
    app.use('*', async (c, next) => {
      if (!hosts.includes(c.req.header('host') ?? ''))
        throw new HttpError({ status: 403, code: 'FORBIDDEN_HOST', message: 'Host header not allowed on this loopback server.' });
      await next();
    });
  }
  if (options.cors)
    app.use(
      '/api/*',
      cors({
        origin: options.cors.origins,
        allowHeaders: ['authorization', 'content-type', REQUEST_HEADER],
        allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'],
      }),
    );
  app.use('/api/*', async (c, next) => {
    if (!originAllowed({ origin: c.req.header('origin') ?? null, host: c.req.header('host') ?? null, allowed: options.cors?.origins })) {
      throw new HttpError({
        status: 403,
        code: 'FORBIDDEN_ORIGIN',
        message:
          'Requests from this Origin are not accepted: only pages of this server and configured --cors-origin values may call the API.',
      });
    }
    if (
      STATE_CHANGING.has(c.req.method) &&
      !/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '') &&
      c.req.header(REQUEST_HEADER) === undefined
    ) {
      throw new HttpError({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `State-changing requests need a JSON body (Content-Type: application/json) or an ${REQUEST_HEADER} header.`,
      });
    }
    await next();
  });
  app.use('/api/*', async (c, next) => {
    if (c.req.method === 'OPTIONS' && options.cors) return next();
    views.set(c, await authenticate(c.req.header('authorization') ?? null));
    await next();
  });
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: maxBytes,
      onError: (c) => {
        // The unread body makes the connection unusable for a next request: tell the client to drop it.
        c.header('connection', 'close');
        return c.json(errorBody('PAYLOAD_TOO_LARGE', `Request body over ${maxBytes} bytes.`), 413);
      },
    }),
  );
  registerRoutes(app.basePath('/api/v1'), (c) => {
    const ops = views.get(c);
    // The auth middleware runs before every /api route; a route without a view is a wiring bug.
    if (!ops) throw new HttpError({ status: 500, code: 'INTERNAL', message: 'No caller for this request.' });
    return ops;
  });
  if (options.inspector !== false) registerInspectorAssets(app);
  return async (req) => app.fetch(req);
}
