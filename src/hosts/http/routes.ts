/**
 * The REST routes: each one turns a path, query or body into one operation's input and its result
 * into JSON. Validation, scopes and limits are the operation's (src/core/ops), as on every host.
 */
import type { Context, Hono } from 'hono';
import { isOpName, type CallerOperations, type OpName, type OpResult } from '../../core/ops/index.js';
import { HttpError } from './errors.js';
import { isRecord, jsonBody, queryInput } from './validate.js';

const LIST_QUERY = {
  arrays: ['scope', 'category', 'tag'],
  ints: ['limit', 'offset'],
  bools: ['history'],
  rename: { category: 'categories', tag: 'tags', history: 'includeHistory' },
} as const;

/** A body field that would override the path's `:id` is refused rather than silently dropped. */
function withId(body: unknown, id: string): unknown {
  if (!isRecord(body)) return body;
  if (body.id !== undefined && body.id !== id)
    throw new HttpError({ status: 400, code: 'INVALID_ARGUMENT', message: 'The memory id is the path’s; leave id out of the body.' });
  return { ...body, id };
}

/** `opsOf` gives the request's caller-scoped view (the token's agent, else the server's caller). */
export function registerRoutes(api: Hono, opsOf: (c: Context) => CallerOperations): void {
  const run = <N extends OpName>(c: Context, name: N, input: unknown): Promise<OpResult<N>> =>
    opsOf(c).run(name, input, { abortSignal: c.req.raw.signal });
  const id = (c: Context) => c.req.param('id') ?? '';

  api.get('/health', (c) => c.json({ ok: true }));
  // Any operation by name, `{ result }` back: what remote hosts (STRATA_URL) call, so every host
  // feature that runs an operation works against a service with no route of its own.
  api.post('/ops/:name', async (c) => {
    const name = c.req.param('name');
    if (!isOpName(name) || name === 'export')
      throw new HttpError({
        status: 404,
        code: 'NOT_FOUND',
        message: name === 'export' ? 'export streams: use GET /api/v1/export.' : `No operation ${JSON.stringify(name)}.`,
      });
    return c.json({ result: await run(c, name, await jsonBody(c)) });
  });
  api.get('/whoami', async (c) => c.json(await run(c, 'whoami', queryInput(c))));
  api.get('/stats', async (c) => c.json(await run(c, 'stats', queryInput(c))));
  // LLM usage and cost (distillation etc.): a property of the install, not of a scope.
  api.get('/usage', async (c) => c.json(await run(c, 'usage', queryInput(c))));

  api.get('/memories', async (c) => c.json(await run(c, 'list', queryInput(c, LIST_QUERY))));
  api.post('/memories', async (c) => {
    const result = await run(c, 'remember', await jsonBody(c));
    return c.json(result, result.action === 'created' ? 201 : 200);
  });
  api.get('/memories/:id', async (c) => c.json(await run(c, 'get', { id: id(c) })));
  api.patch('/memories/:id', async (c) => c.json(await run(c, 'update', withId(await jsonBody(c), id(c)))));
  api.delete('/memories/:id', async (c) => {
    const out = await run(c, 'forget', { ids: [id(c)] });
    return c.json({ deleted: out.deleted, id: id(c) });
  });
  // Bulk forget: `{ids: [...]}` (at most the ids limit per call); 404 when none of them is the caller's.
  api.post('/memories/forget', async (c) => {
    const body = await jsonBody(c);
    if (!isRecord(body) || !Array.isArray(body.ids) || Object.keys(body).some((k) => k !== 'ids'))
      throw new HttpError({
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: 'Send {"ids": ["<memory id>", ...]} to forget memories by id.',
      });
    const out = await run(c, 'forget', { ids: body.ids });
    return c.json({ deleted: out.deleted, ids: out.ids });
  });
  api.get('/memories/:id/history', async (c) => c.json(await run(c, 'history', { id: id(c) })));
  api.post('/memories/:id/revert', async (c) => c.json(await run(c, 'revert', { id: id(c) })));
  api.get('/memories/:id/provenance', async (c) => c.json(await run(c, 'provenance', { id: id(c) })));

  // `{scopes: [...], explain?}`: the REST shape of recall and explain since v1.
  api.post('/recall', async (c) => {
    const body = await jsonBody(c);
    if (!isRecord(body)) return c.json(await run(c, 'recall', body));
    const { scopes, explain, ...rest } = body;
    if (explain !== undefined && typeof explain !== 'boolean')
      throw new HttpError({ status: 400, code: 'INVALID_ARGUMENT', message: 'explain must be true or false.' });
    const input = scopes === undefined ? rest : { ...rest, scope: scopes };
    return c.json(explain ? await run(c, 'explain', input) : await run(c, 'recall', input));
  });
  api.post('/conversations/search', async (c) => c.json(await run(c, 'conversations', await jsonBody(c))));
  api.get('/context', async (c) => c.json(await run(c, 'context', queryInput(c, { ints: ['maxTokens'] }))));

  api.get('/export', async (c) => {
    const q = queryInput(c, { arrays: ['scope'], bools: ['history'], rename: { history: 'includeHistory' } });
    const lines = await run(c, 'export', q);
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
    return new Response(stream, {
      headers: {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'content-disposition': 'attachment; filename="strata-export.jsonl"',
      },
    });
  });

  // Counts for the inspector's charts: per day created, category, scope, source agent and kind.
  api.get('/overview', async (c) => c.json(await run(c, 'overview', queryInput(c, { arrays: ['scope'] }))));
  // `{jsonl, dryRun?, scope?}`: the export format back in; a dry run reports and previews, writing nothing.
  api.post('/import', async (c) => c.json(await run(c, 'import', await jsonBody(c))));
  api.get('/sessions', async (c) => c.json(await run(c, 'sessions', queryInput(c, { ints: ['limit', 'offset'] }))));
  // A session's turns: `?agentId=&sessionKey=&limit=&offset=` (session keys hold colons and slashes, so not in the path).
  api.get('/session', async (c) => c.json(await run(c, 'session', queryInput(c, { ints: ['limit', 'offset'] }))));

  // Scenes and persona: `?agent=` picks another agent whose scope the caller holds.
  api.get('/persona', async (c) => c.json(await run(c, 'persona', queryInput(c))));
  api.get('/scenes', async (c) => c.json(await run(c, 'scenes', queryInput(c))));
  api.get('/scenes/:name', async (c) => c.json(await run(c, 'scene', { ...queryInput(c), name: c.req.param('name') })));
}
