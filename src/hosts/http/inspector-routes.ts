/**
 * Routes the web inspector needs beyond plain CRUD: a memory's provenance (its source messages from
 * the L0 log) and scenes/persona per agent. Same caller rule as the rest: never wider than its scopes.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { parseScene } from '../../core/layers/scene-file.js';
import type { L0Record } from '../../spec/conversation.js';
import type { Strata } from '../../strata.js';
import { allowedScope, type Caller } from '../mcp/caller.js';
import { listLayerFiles, readLayerFile } from '../mcp/layers.js';
import { HttpError } from './errors.js';
import { parseWith, queryObject, schemas } from './validate.js';

/** Source messages returned per memory at most (a merged memory can cite many). */
const MAX_MESSAGES = 200;
const AGENT_ID = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'expected an agent id').refine((a) => !a.includes('..'), 'expected an agent id');
const agentQuery = z.strictObject({ agent: AGENT_ID.optional() });

export interface Provenance {
  id: string;
  source: { kind: string; agentId?: string; sessionKey?: string; messageIds: string[] };
  /** The cited messages found in the L0 log, in log order. */
  messages: L0Record[];
  /** Cited ids not found (log pruned, or written by another machine). */
  missing: string[];
  /** Set when the messages belong to an agent this caller may not read. */
  withheld?: string;
}

/** Whether the caller may read an agent's conversations (and scenes): it holds `agent:<id>`, or is the owner. */
function canReadAgent(caller: Caller, agentId: string): boolean {
  return caller.agentId === null || caller.agentId === agentId || caller.scopes.includes(`agent:${agentId}`);
}

export function registerInspectorRoutes(api: Hono, options: { strata: Strata; caller: Caller }): void {
  const { strata, caller } = options;

  api.get('/memories/:id/provenance', async (c) => {
    const id = parseWith(schemas.id, c.req.param('id'));
    const record = await strata.getOne({ id, scopes: caller.scopes });
    const { kind, agentId, sessionKey } = record.source;
    const messageIds = [...new Set(record.source.messageIds ?? [])];
    const out: Provenance = { id, source: { kind, ...(agentId ? { agentId } : {}), ...(sessionKey ? { sessionKey } : {}), messageIds }, messages: [], missing: [] };
    if (messageIds.length === 0) return c.json(out);
    if (agentId !== undefined && !canReadAgent(caller, agentId)) {
      return c.json({ ...out, missing: messageIds, withheld: `The source messages are agent ${agentId}'s conversation, which this server's caller may not read.` });
    }
    out.messages = await strata.conversationMessages({ ids: messageIds, sessionKey, agentId, limit: MAX_MESSAGES });
    const found = new Set(out.messages.map((m) => m.id));
    out.missing = messageIds.filter((m) => !found.has(m));
    return c.json(out);
  });

  // Scenes and persona: read-only, only where the L2/L3 layer has written files. `?agent=` picks
  // another agent whose scope the caller holds; default the caller's own agent.
  const agentOf = (raw: Record<string, unknown>): string | null => {
    const q = parseWith(agentQuery, raw);
    if (q.agent === undefined || q.agent === caller.agentId) return caller.agentId;
    allowedScope(caller, `agent:${q.agent}`);
    return q.agent;
  };
  const layers = (agentId: string | null) => listLayerFiles({ home: strata.home, agentId });

  api.get('/persona', async (c) => {
    const agent = agentOf(queryObject(c, []));
    const file = (await layers(agent)).find((f) => f.kind === 'persona');
    if (!file) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No persona for agent ${agent ?? '(none)'} yet (it is written by distillation).` });
    return c.json({ agent, text: await readLayerFile(file) });
  });
  api.get('/scenes', async (c) => {
    const agent = agentOf(queryObject(c, []));
    const files = (await layers(agent)).filter((f) => f.kind === 'scene');
    if (files.length === 0) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No scenes for agent ${agent ?? '(none)'} yet (they are written by distillation).` });
    // Names only: summaries are in each scene's own route (the list shape is part of the API).
    return c.json({ scenes: files.map((f) => ({ name: f.name })) });
  });
  api.get('/scenes/:name', async (c) => {
    const agent = agentOf(queryObject(c, []));
    const file = (await layers(agent)).find((f) => f.kind === 'scene' && f.name === c.req.param('name'));
    if (!file) throw new HttpError({ status: 404, code: 'NOT_FOUND', message: `No scene named ${JSON.stringify(c.req.param('name'))} for agent ${agent ?? '(none)'}.` });
    const text = await readLayerFile(file);
    const { summary, heat, created, updated, body } = parseScene(text);
    return c.json({ agent, name: file.name, text, summary, heat, created, updated, body });
  });
}
