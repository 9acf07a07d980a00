/**
 * A memory's history, reverting its last change and its provenance (the conversation it came from).
 * Every one is filtered by the caller's scopes here, once, for every host.
 */
import { z } from 'zod';
import { NotFoundError } from '../../errors/index.js';
import type { L0Record } from '../../spec/conversation.js';
import { canReadAgent, type Caller } from '../caller.js';
import type { HistoryEntry } from '../history/index.js';
import { memoryId } from './inputs.js';
import { defineOperation } from './operation.js';

/** Every scope a history entry touches, the related memories' included. */
function scopesOf(entry: HistoryEntry): string[] {
  const sides = [entry, ...(entry.related ?? [])];
  return sides.flatMap((s) => [s.previous?.scope, s.next?.scope]).filter((s): s is string => typeof s === 'string');
}

/** An entry touching any scope the caller cannot read is hidden whole: it could carry that scope's text. */
function visibleTo(caller: Caller): (entry: HistoryEntry) => boolean {
  if (caller.owner) return () => true;
  const scopes = new Set(caller.scopes);
  return (entry) => scopesOf(entry).every((s) => scopes.has(s));
}

export const history = defineOperation({
  name: 'history',
  access: 'read',
  description: 'Every change to a memory, oldest first: who, when, why, and the previous text.',
  input: () => z.strictObject({ id: memoryId }),
  async run(ctx, a) {
    const entries = (await ctx.engine.history({ id: a.id })).filter(visibleTo(ctx.caller));
    if (entries.length === 0) throw new NotFoundError({ what: "history entry in this caller's scopes for memory", id: a.id });
    return { id: a.id, entries };
  },
});

export const revert = defineOperation({
  name: 'revert',
  access: 'write',
  description: 'Undo the last change to a memory (a supersede or merge restores the memories it touched).',
  input: () => z.strictObject({ id: memoryId }),
  async run(ctx, a) {
    const visible = visibleTo(ctx.caller);
    // Checked on the entry the revert actually undoes: a revert undoes a change as a whole, so
    // every scope it touched must be the caller's.
    return ctx.engine.revert({ id: a.id, actor: ctx.actor, accept: visible }).catch((error: unknown) => {
      throw (error as { code?: string })?.code === 'NOT_FOUND'
        ? new NotFoundError({ what: "change to revert in this caller's scopes for memory", id: a.id })
        : error;
    });
  },
});

/** Source messages returned per memory at most (a merged memory can cite many). */
const MAX_SOURCE_MESSAGES = 200;

export interface Provenance {
  id: string;
  source: { kind: string; agentId?: string; sessionKey?: string; messageIds: string[] };
  /** The cited messages found in the L0 log, in log order. */
  messages: L0Record[];
  /** Cited ids not found (log pruned, or written on another machine). */
  missing: string[];
  /** Set when the messages are an agent's conversation the caller may not read. */
  withheld?: string;
}

async function findMessages(
  records: AsyncIterable<L0Record>,
  options: { ids: string[]; sessionKey?: string; agentId?: string; readable: (agentId: string) => boolean },
): Promise<L0Record[]> {
  const wanted = new Set(options.ids);
  const found: L0Record[] = [];
  const seen = new Set<string>();
  for await (const r of records) {
    if (!wanted.has(r.id) || seen.has(r.id)) continue;
    if (options.sessionKey !== undefined && r.sessionKey !== options.sessionKey) continue;
    if (options.agentId !== undefined && r.agentId !== options.agentId) continue;
    // A source naming no agent (e.g. an imported memory) still never opens another agent's log.
    if (!options.readable(r.agentId)) continue;
    seen.add(r.id);
    found.push(r);
    // Message ids are unique within a session, so the scan can stop once every id is found.
    if (seen.size === wanted.size || found.length >= MAX_SOURCE_MESSAGES) break;
  }
  return found;
}

export const provenance = defineOperation({
  name: 'provenance',
  access: 'read',
  description: 'Where a memory came from: its source and the conversation messages it was distilled from.',
  input: () => z.strictObject({ id: memoryId }),
  async run(ctx, a): Promise<Provenance> {
    const [record] = await ctx.engine.get({ ids: [a.id], scopes: ctx.caller.owner ? undefined : ctx.caller.scopes });
    if (!record) throw new NotFoundError({ what: "memory in this caller's scopes", id: a.id });
    const { kind, agentId, sessionKey } = record.source;
    const messageIds = [...new Set(record.source.messageIds ?? [])];
    const out: Provenance = {
      id: a.id,
      source: { kind, ...(agentId ? { agentId } : {}), ...(sessionKey ? { sessionKey } : {}), messageIds },
      messages: [],
      missing: [],
    };
    if (messageIds.length === 0) return out;
    // Sharing a memory (e.g. in global) does not share the conversation it was learned in.
    if (agentId !== undefined && !canReadAgent(ctx.caller, agentId)) {
      return {
        ...out,
        missing: messageIds,
        withheld: `The source messages are agent ${agentId}'s conversation, which this caller may not read.`,
      };
    }
    out.messages = await findMessages(ctx.l0Records(), {
      ids: messageIds,
      sessionKey,
      agentId,
      readable: (agent) => canReadAgent(ctx.caller, agent),
    });
    const found = new Set(out.messages.map((m) => m.id));
    out.missing = messageIds.filter((m) => !found.has(m));
    return out;
  },
});
