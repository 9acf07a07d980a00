/**
 * Read-only memory history from the core history log. The engine does not expose history yet,
 * so this reads `HistoryLog` directly; revert needs the engine and answers 501 until it has it.
 */
import type { Hono } from 'hono';
import { HistoryLog, type HistoryEntry } from '../../core/history/index.js';
import type { Caller } from '../mcp/caller.js';
import { HttpError } from './errors.js';
import { parseWith, schemas } from './validate.js';

function scopesOf(entry: HistoryEntry): string[] {
  const sides = [entry, ...(entry.related ?? [])];
  return sides.flatMap((s) => [s.previous?.scope, s.next?.scope]).filter((s): s is string => typeof s === 'string');
}

export function registerHistoryRoutes(api: Hono, options: { home: string; caller: Caller }): void {
  const log = new HistoryLog({ home: options.home });
  const visible = new Set(options.caller.scopes);

  api.get('/memories/:id/history', async (c) => {
    const id = parseWith(schemas.id, c.req.param('id'));
    // An entry touching any scope the caller cannot read is left out: it could carry that scope's text.
    const entries = (await log.historyOf({ id })).filter((e) => scopesOf(e).every((s) => visible.has(s)));
    if (entries.length === 0) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No history for memory ${id} in this caller's scopes.` });
    return c.json({ id, entries });
  });

  api.post('/memories/:id/revert', () => {
    throw new HttpError({ status: 501, code: 'UNSUPPORTED', message: 'Revert is not exposed by the engine yet; use the CLI once it is.' });
  });
}
