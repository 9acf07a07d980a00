/** Memory history, revert and conversation search: engine calls limited to the caller's scopes/agent. */
import type { Hono } from 'hono';
import type { HistoryEntry } from '../../core/history/index.js';
import type { Strata } from '../../strata.js';
import type { Caller } from '../mcp/caller.js';
import { HttpError } from './errors.js';
import { jsonBody, parseWith, schemas } from './validate.js';

function scopesOf(entry: HistoryEntry): string[] {
  const sides = [entry, ...(entry.related ?? [])];
  return sides.flatMap((s) => [s.previous?.scope, s.next?.scope]).filter((s): s is string => typeof s === 'string');
}

export function registerHistoryRoutes(api: Hono, options: { strata: Strata; caller: Caller; actor: string }): void {
  const { strata, caller } = options;
  const visible = new Set(caller.scopes);
  // An entry touching any scope the caller cannot read is left out: it could carry that scope's text.
  const visibleHistory = async (id: string) => (await strata.history({ id })).filter((e) => scopesOf(e).every((s) => visible.has(s)));

  api.get('/memories/:id/history', async (c) => {
    const id = parseWith(schemas.id, c.req.param('id'));
    const entries = await visibleHistory(id);
    if (entries.length === 0) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No history for memory ${id} in this caller's scopes.` });
    return c.json({ id, entries });
  });

  api.post('/memories/:id/revert', async (c) => {
    const id = parseWith(schemas.id, c.req.param('id'));
    const all = await strata.history({ id });
    const last = all[all.length - 1];
    // Revert undoes the last change as a whole, so every scope it touched must be the caller's.
    if (!last || !scopesOf(last).every((s) => visible.has(s))) {
      throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No change to revert for memory ${id} in this caller's scopes.` });
    }
    return c.json(await strata.revert({ id, actor: options.actor }));
  });

  api.post('/conversations/search', async (c) => {
    const body = await jsonBody(c, schemas.conversationSearch);
    // Scoped to the caller's agent; a server without an agent (owner mode) searches every agent.
    const results = await strata.searchConversations({ ...body, agentId: caller.agentId ?? undefined, abortSignal: c.req.raw.signal });
    return c.json({ results });
  });
}
