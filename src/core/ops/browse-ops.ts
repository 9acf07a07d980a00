/**
 * Operations for a person browsing what the engine knows (the web inspector, and any host that
 * wants them): sessions of the conversation log and their turns with the memories citing each
 * turn, an overview for charts, and an import from JSONL text with a dry run. Each is limited to
 * the caller's scopes and the conversations of agents it may read, like every operation.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { NotFoundError } from '../../errors/index.js';
import type { L0Record } from '../../spec/conversation.js';
import type { L0SessionInfo } from '../../spec/l0-log.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { allowedScope, canReadAgent, conversationAgents, scopeNotAllowed } from '../caller.js';
import type { ImportReport } from '../engine/import-export.js';
import type { ListMemoriesOptions } from '../engine/types.js';
import { readScope, writeScope } from './inputs.js';
import { defineOperation, type OpContext } from './operation.js';

/** Memories an overview or a session's back-links look at, at most (a page of the list at a time). */
const SCAN_MAX = 50_000;
const SCAN_PAGE = 1_000;
const NO_AGENT_NOTE =
  'This caller has no agent, so no conversation is visible to it: start the host with --agent <id> (or --all-scopes for every agent).';

/** The memories of a filter, page by page, at most SCAN_MAX of them. */
export async function* scanMemories(ctx: OpContext, filter: Omit<ListMemoriesOptions, 'limit' | 'offset'>): AsyncGenerator<MemoryRecord> {
  for (let offset = 0; offset < SCAN_MAX; offset += SCAN_PAGE) {
    const page = await ctx.engine.list({ order: 'oldest', ...filter, limit: SCAN_PAGE, offset });
    yield* page;
    if (page.length < SCAN_PAGE) return;
  }
}

const agentId = z.string().min(1).max(128).describe('The agent whose conversation it is');
const sessionKey = z.string().min(1).max(200);

export interface SessionsResult {
  sessions: L0SessionInfo[];
  total: number;
  limit: number;
  offset: number;
  note?: string;
}

export const sessions = defineOperation({
  name: 'sessions',
  access: 'read',
  description: 'Conversation sessions in the log, most recently active first (only agents whose conversations you may read).',
  input: () =>
    z.strictObject({
      agent: agentId.optional().describe('Only this agent’s sessions'),
      limit: z.number().int().min(1).max(500).optional(),
      offset: z.number().int().min(0).max(1_000_000).optional(),
    }),
  async run(ctx, a): Promise<SessionsResult> {
    const limit = a.limit ?? 50;
    const offset = a.offset ?? 0;
    const agents = conversationAgents(ctx.caller);
    if (agents?.length === 0) return { sessions: [], total: 0, limit, offset, note: NO_AGENT_NOTE };
    if (a.agent !== undefined && !canReadAgent(ctx.caller, a.agent)) return { sessions: [], total: 0, limit, offset };
    const all = (await ctx.engine.sessions({ agentId: a.agent, abortSignal: ctx.abortSignal })).filter((s) =>
      canReadAgent(ctx.caller, s.agentId),
    );
    return { sessions: all.slice(offset, offset + limit), total: all.length, limit, offset };
  },
});

export interface CitingMemory {
  id: string;
  text: string;
  category: string;
  scope: string;
}

export interface SessionResult {
  agentId: string;
  sessionKey: string;
  turns: L0Record[];
  total: number;
  limit: number;
  offset: number;
  /** Turn id -> the memories (in the caller's scopes) that cite it as their source. */
  citedBy: Record<string, CitingMemory[]>;
}

export const session = defineOperation({
  name: 'session',
  access: 'read',
  description: 'The turns of one conversation session, oldest first, with the memories learned from each turn.',
  input: () =>
    z.strictObject({
      agentId,
      sessionKey,
      limit: z.number().int().min(1).max(1_000).optional(),
      offset: z.number().int().min(0).max(10_000_000).optional(),
    }),
  async run(ctx, a): Promise<SessionResult> {
    // Another agent's conversation is answered like a session that does not exist.
    if (!canReadAgent(ctx.caller, a.agentId))
      throw new NotFoundError({ what: 'session of an agent this caller may read', id: a.sessionKey });
    const all = await ctx.engine.sessionMessages({ agentId: a.agentId, sessionKey: a.sessionKey, abortSignal: ctx.abortSignal });
    if (all.length === 0) throw new NotFoundError({ what: 'conversation session', id: `${a.agentId}/${a.sessionKey}` });
    const limit = a.limit ?? 200;
    const offset = a.offset ?? 0;
    const turns = all.slice(offset, offset + limit);
    const ids = new Set(turns.map((t) => t.id));
    const citedBy: Record<string, CitingMemory[]> = {};
    for await (const m of scanMemories(ctx, { scopes: await ctx.readScopes() })) {
      const s = m.source;
      if (s.sessionKey !== a.sessionKey || (s.agentId !== undefined && s.agentId !== a.agentId)) continue;
      for (const id of new Set(s.messageIds ?? [])) {
        if (!ids.has(id)) continue;
        (citedBy[id] ??= []).push({ id: m.id, text: m.text, category: m.category, scope: m.scope });
      }
    }
    return { agentId: a.agentId, sessionKey: a.sessionKey, turns, total: all.length, limit, offset, citedBy };
  },
});

export interface OverviewResult {
  /** Current memories counted (at most the scan limit). */
  memories: number;
  truncated: boolean;
  /** Memories created per UTC day, oldest first. */
  byDay: Array<{ day: string; count: number }>;
  byCategory: Record<string, number>;
  byScope: Record<string, number>;
  /** The agent a memory was learned from (its source), `(none)` for manual and imported ones without one. */
  byAgent: Record<string, number>;
  bySource: Record<string, number>;
}

const bump = (into: Record<string, number>, key: string) => (into[key] = (into[key] ?? 0) + 1);

export const overview = defineOperation({
  name: 'overview',
  access: 'read',
  description: 'Counts of current memories over time (per day created), by category, scope, source agent and source kind.',
  input: (ctx) => z.strictObject({ scope: readScope(ctx).optional() }),
  async run(ctx, a): Promise<OverviewResult> {
    const out: OverviewResult = { memories: 0, truncated: false, byDay: [], byCategory: {}, byScope: {}, byAgent: {}, bySource: {} };
    const days: Record<string, number> = {};
    for await (const m of scanMemories(ctx, { scopes: await ctx.readScopes(a.scope) })) {
      out.memories += 1;
      bump(days, m.createdAt.slice(0, 10));
      bump(out.byCategory, m.category);
      bump(out.byScope, m.scope);
      bump(out.byAgent, m.source.agentId ?? '(none)');
      bump(out.bySource, m.source.kind);
    }
    out.truncated = out.memories >= SCAN_MAX;
    out.byDay = Object.keys(days)
      .sort()
      .map((day) => ({ day, count: days[day]! }));
    return out;
  },
});

/** Import lines shown in a preview. */
const PREVIEW_LINES = 20;

export interface ImportOpResult extends ImportReport {
  /** The first lines as they would be stored (text, scope, category), for a person to check. */
  preview: Array<{ line: number; text: string; scope: string; category: string }>;
}

interface LineHead {
  text?: unknown;
  scope?: unknown;
  category?: unknown;
}

export const importMemories = defineOperation({
  name: 'import',
  access: 'write',
  description:
    'Import memories from JSONL text (the export format): validates every line, skips ids and texts already present; dryRun only reports.',
  input: (ctx) =>
    z.strictObject({
      jsonl: z.string().min(1).describe('One memory per line, as `export` writes them'),
      dryRun: z.boolean().optional(),
      scope: writeScope(ctx).optional().describe('Put every imported memory in this scope'),
    }),
  async run(ctx, a): Promise<ImportOpResult> {
    const scope = a.scope === undefined ? undefined : allowedScope(ctx.caller, a.scope);
    const preview: ImportOpResult['preview'] = [];
    const lines = a.jsonl.split(/\r?\n/);
    for (const [i, raw] of lines.entries()) {
      if (!raw.trim()) continue;
      let head: LineHead | undefined;
      try {
        head = JSON.parse(raw) as LineHead;
      } catch {
        continue; // the engine reports the line as invalid
      }
      const lineScope = scope ?? (typeof head?.scope === 'string' ? head.scope : 'global');
      // A line may never write into a scope the caller does not hold.
      if (!ctx.caller.owner && !ctx.caller.scopes.includes(lineScope)) throw scopeNotAllowed(`${lineScope} (line ${i + 1})`, ctx.caller);
      if (preview.length < PREVIEW_LINES && typeof head?.text === 'string')
        preview.push({
          line: i + 1,
          text: head.text,
          scope: lineScope,
          category: typeof head.category === 'string' ? head.category : 'other',
        });
    }
    const report = await ctx.engine.import({
      input: Readable.from([a.jsonl]),
      dryRun: a.dryRun,
      scope,
      abortSignal: ctx.abortSignal,
    });
    return { ...report, preview };
  },
});
