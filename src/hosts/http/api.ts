/**
 * The Strata REST API as a Web-standard fetch handler (hono). The server acts as one configured
 * caller: requests may narrow to some of its scopes, never widen them.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Strata } from '../../strata.js';
import { allowedScope, narrowScopes, resolveCaller, type Caller } from '../mcp/caller.js';
import { scopedStats } from '../mcp/format.js';
import { errorBody, HttpError, toHttpError } from './errors.js';
import { bearerMatches } from './listen.js';
import { registerHistoryRoutes } from './history-routes.js';
import { registerInspectorAssets } from './inspector-assets.js';
import { registerInspectorRoutes } from './inspector-routes.js';
import { summarizeUsage } from '../../core/llm/usage-log.js';
import { jsonBody, parseWith, queryObject, schemas } from './validate.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The history log's actor for changes made through this API. */
const ACTOR = 'api';

export interface HttpHandlerOptions {
  /** An opened `Strata`; the handler never closes it. */
  strata: Strata;
  /** Who the server acts as; default: `scopes.defaultAgent` from config, else `global` only. */
  caller?: Caller;
  /** When set, every request must send `Authorization: Bearer <token>`. */
  token?: string;
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
  const { strata } = options;
  const caller = options.caller ?? resolveCaller({ config: strata.config, env: {} });
  const app = new Hono();

  app.onError((error, c) => {
    const { status, body } = toHttpError(error);
    return c.json(body, status);
  });
  app.notFound((c) => c.json(errorBody('NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}; the API lives under /api/v1.`), 404));

  if (options.allowedHosts) {
    const hosts = options.allowedHosts;
    app.use('*', async (c, next) => {
      if (!hosts.includes(c.req.header('host') ?? '')) throw new HttpError({ status: 403, code: 'FORBIDDEN_HOST', message: 'Host header not allowed on this loopback server.' });
      await next();
    });
  }
  if (options.cors) app.use('/api/*', cors({ origin: options.cors.origins, allowHeaders: ['authorization', 'content-type'], allowMethods: ['GET', 'POST', 'PATCH', 'DELETE'] }));
  if (options.token) {
    const token = options.token;
    app.use('/api/*', async (c, next) => {
      if (c.req.method === 'OPTIONS' && options.cors) return next();
      if (!bearerMatches(c.req.header('authorization') ?? null, token)) {
        c.header('www-authenticate', 'Bearer');
        return c.json(errorBody('UNAUTHORIZED', 'Missing or wrong bearer token: send Authorization: Bearer <token>.'), 401);
      }
      await next();
    });
  }
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      onError: (c) => {
        // The unread body makes the connection unusable for a next request: tell the client to drop it.
        c.header('connection', 'close');
        return c.json(errorBody('PAYLOAD_TOO_LARGE', `Request body over ${options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes.`), 413);
      },
    }),
  );

  const api = app.basePath('/api/v1');
  const source = { kind: 'manual' as const, ...(caller.agentId ? { agentId: caller.agentId } : {}) };
  const idParam = (raw: string | undefined) => parseWith(schemas.id, raw);

  api.get('/health', (c) => c.json({ ok: true }));
  api.get('/whoami', (c) => c.json({ agent: caller.agentId, scopes: caller.scopes, writeScope: caller.writeScope }));

  api.get('/memories', async (c) => {
    const q = parseWith(schemas.listQuery, queryObject(c, ['scope', 'category', 'tag']));
    const scopes = narrowScopes(caller, q.scope);
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    const [memories, total] = await Promise.all([
      strata.list({ scopes, categories: q.category, tags: q.tag, includeHistory: q.history, limit, offset, order: q.order }),
      strata.count({ scopes, includeHistory: q.history, categories: q.category, tags: q.tag }),
    ]);
    return c.json({ memories, limit, offset, total });
  });

  api.post('/memories', async (c) => {
    const body = await jsonBody(c, schemas.createMemory);
    const scope = body.scope === undefined ? caller.writeScope : allowedScope(caller, body.scope);
    const result = await strata.remember({ ...body, scope, source, actor: ACTOR });
    return c.json(result, result.action === 'created' ? 201 : 200);
  });

  api.get('/memories/:id', async (c) => c.json(await strata.getOne({ id: idParam(c.req.param('id')), scopes: caller.scopes })));

  api.patch('/memories/:id', async (c) => {
    const id = idParam(c.req.param('id'));
    const body = await jsonBody(c, schemas.updateMemory);
    const scope = body.scope === undefined ? undefined : allowedScope(caller, body.scope);
    return c.json(await strata.update({ ...body, id, scope, scopes: caller.scopes, actor: ACTOR }));
  });

  api.delete('/memories/:id', async (c) => {
    const id = idParam(c.req.param('id'));
    const out = await strata.forget({ ids: [id], scopes: caller.scopes, actor: ACTOR });
    if (out.deleted === 0) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No memory with id ${id} in this caller's scopes.` });
    return c.json({ deleted: out.deleted, id });
  });

  api.post('/recall', async (c) => {
    const body = await jsonBody(c, schemas.recall);
    const { scopes: requested, ...rest } = body;
    const result = await strata.recall({ ...rest, scopes: narrowScopes(caller, requested), abortSignal: c.req.raw.signal });
    return c.json(result);
  });

  api.get('/stats', async (c) => {
    const stats = await strata.stats({ scopes: caller.scopes }); // every count limited to the caller's scopes
    return c.json({ agent: caller.agentId, scopes: caller.scopes, ...scopedStats(stats, caller.scopes, stats.current), byCategory: stats.byCategory });
  });

  // LLM usage and cost (distillation etc.): a property of the install, not of a scope.
  api.get('/usage', async (c) => {
    const q = parseWith(schemas.usageQuery, queryObject(c, []));
    return c.json(await summarizeUsage({ home: strata.home, since: q.since ? new Date(q.since) : undefined }));
  });

  api.get('/export', (c) => {
    const q = parseWith(schemas.exportQuery, queryObject(c, ['scope']));
    const lines = strata.export({ scopes: narrowScopes(caller, q.scope), includeHistory: q.history ?? true });
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await lines.return(undefined);
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': 'attachment; filename="strata-export.jsonl"' } });
  });

  registerHistoryRoutes(api, { strata, caller, actor: ACTOR });
  registerInspectorRoutes(api, { strata, caller });
  if (options.inspector !== false) registerInspectorAssets(app);

  return async (req) => app.fetch(req);
}
