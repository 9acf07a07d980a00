/**
 * The MCP tools: each validates its input with zod, maps it onto one engine call within the
 * caller's scopes, and turns any failure into an `isError` result the calling model can act on.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { StrataError } from '../../errors/index.js';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import type { ConversationSearchHit } from '../../spec/conversation.js';
import type { MemoryEngine } from '../../core/engine/memory-engine.js';
import { formatContextBlock } from '../../core/recall/context-format.js';
import { allowedScope, narrowScopes, type Caller } from './caller.js';
import { compactHit, compactRecord, scopedStats } from './format.js';

/** Conversation (L0) search, e.g. `Strata.searchConversations`; without it the tool answers with a tool error. */
export type ConversationSearchFn = (options: { query: string; limit: number; agentId?: string; sessionKey?: string }) => Promise<ConversationSearchHit[]>;

export interface ToolDeps {
  engine: MemoryEngine;
  caller: Caller;
  conversationSearch?: ConversationSearchFn;
}

/** The history log's actor for changes made through MCP. */
const ACTOR = 'mcp';
const category = z.enum(MEMORY_CATEGORIES);
const unit = z.number().min(0).max(1);
const id = z.string().min(1).max(64);

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

function fail(error: unknown): CallToolResult {
  const message = StrataError.isInstance(error) ? `[${error.code}] ${error.message}` : error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a handler and converts thrown errors into tool errors (never a protocol error). */
function guarded<A>(fn: (args: A) => Promise<unknown>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return ok(await fn(args));
    } catch (error) {
      return fail(error);
    }
  };
}

export function registerTools(server: McpServer, deps: ToolDeps): void {
  const { engine, caller } = deps;
  const source = { kind: 'manual' as const, ...(caller.agentId ? { agentId: caller.agentId } : {}) };
  // Lists the caller's own scopes so the model can pick one; anything else is refused in the handler.
  const scopeParam = z.string().max(200).describe(`Narrow to one of your scopes: ${caller.scopes.join(', ')}. Omitted: reads all of them; writes go to ${caller.writeScope}.`);

  server.registerTool('memory_recall', {
    description: 'Search long-term memory (hybrid lexical + vector) for facts, preferences and decisions relevant to a query.',
    inputSchema: { query: z.string().min(1).max(4000), limit: z.number().int().min(1).max(20).optional(), scope: scopeParam.optional(), categories: z.array(category).max(8).optional(), includeHistory: z.boolean().optional(), minScore: unit.optional() },
    annotations: { readOnlyHint: true },
  }, guarded(async (a) => {
    const result = await engine.recall({ query: a.query, scopes: narrowScopes(caller, a.scope), limit: a.limit, categories: a.categories, includeHistory: a.includeHistory, minScore: a.minScore });
    return { query: result.query, results: result.results.map(compactHit) };
  }));

  server.registerTool('memory_explain', {
    description: 'Run a recall and explain it: every candidate with its per-stage scores and why it was kept or dropped.',
    inputSchema: { query: z.string().min(1).max(4000), limit: z.number().int().min(1).max(20).optional(), scope: scopeParam.optional() },
    annotations: { readOnlyHint: true },
  }, guarded(async (a) => {
    const result = await engine.recall({ query: a.query, scopes: narrowScopes(caller, a.scope), limit: a.limit, explain: true });
    return { query: result.query, results: result.results.map(compactHit), explain: result.explain };
  }));

  server.registerTool('memory_store', {
    description: 'Store one durable memory (a fact, preference, decision, rule...). Duplicates are reported, not stored twice.',
    inputSchema: { text: z.string().min(1).max(20_000), category: category.optional(), importance: unit.optional(), confidence: unit.optional(), tags: z.array(z.string().min(1).max(64)).max(32).optional(), scope: scopeParam.optional() },
  }, guarded(async (a) => {
    const scope = a.scope === undefined ? caller.writeScope : allowedScope(caller, a.scope);
    const r = await engine.remember({ text: a.text, scope, category: a.category, importance: a.importance, confidence: a.confidence, tags: a.tags, source, actor: ACTOR });
    return { action: r.action, id: r.id, ...(r.duplicateOf ? { duplicateOf: r.duplicateOf } : {}), redactions: r.redactions, flags: r.flags, ...(r.record ? { memory: compactRecord(r.record) } : {}) };
  }));

  server.registerTool('memory_update', {
    description: 'Change a memory in place (text, category, importance, confidence, tags, or move it to another of your scopes).',
    inputSchema: { id, text: z.string().min(1).max(20_000).optional(), category: category.optional(), importance: unit.optional(), confidence: unit.optional(), tags: z.array(z.string().min(1).max(64)).max(32).optional(), scope: scopeParam.optional() },
  }, guarded(async (a) => {
    const record = await engine.update({ id: a.id, actor: ACTOR, scopes: caller.scopes, text: a.text, category: a.category, importance: a.importance, confidence: a.confidence, tags: a.tags, scope: a.scope === undefined ? undefined : allowedScope(caller, a.scope) });
    return { updated: compactRecord(record) };
  }));

  server.registerTool('memory_forget', {
    description: 'Delete memories by id, or by query. A query only previews its matches unless confirm is true.',
    inputSchema: { ids: z.array(id).min(1).max(100).optional(), query: z.string().min(1).max(4000).optional(), confirm: z.boolean().optional(), limit: z.number().int().min(1).max(20).optional() },
    annotations: { destructiveHint: true },
  }, guarded(async (a) => {
    const out = await engine.forget({ ids: a.ids, query: a.query, scopes: caller.scopes, confirm: a.confirm, limit: a.limit, actor: ACTOR });
    return { deleted: out.deleted, matches: out.matches.map(compactRecord), ...(a.query && !a.ids && !a.confirm ? { note: 'preview only: call again with confirm: true to delete these' } : {}) };
  }));

  server.registerTool('memory_list', {
    description: 'List memories, newest first, optionally filtered by scope, category and tag.',
    inputSchema: { scope: scopeParam.optional(), categories: z.array(category).max(8).optional(), tags: z.array(z.string().min(1).max(64)).max(16).optional(), includeHistory: z.boolean().optional(), limit: z.number().int().min(1).max(100).optional(), offset: z.number().int().min(0).max(1_000_000).optional() },
    annotations: { readOnlyHint: true },
  }, guarded(async (a) => {
    const limit = a.limit ?? 20;
    const records = await engine.list({ scopes: narrowScopes(caller, a.scope), categories: a.categories, tags: a.tags, includeHistory: a.includeHistory, limit, offset: a.offset ?? 0 });
    return { memories: records.map(compactRecord), limit, offset: a.offset ?? 0 };
  }));

  server.registerTool('memory_stats', {
    description: 'Counts of memories in your scopes, and the embedder and store in use.',
    inputSchema: {},
    annotations: { readOnlyHint: true },
  }, guarded(async () => {
    const stats = await engine.stats({ scopes: caller.scopes }); // every count limited to the caller's scopes
    return { agent: caller.agentId, scopes: caller.scopes, ...scopedStats(stats, caller.scopes, stats.current), byCategory: stats.byCategory };
  }));

  server.registerTool('conversation_search', {
    description: 'Search past conversation messages (the raw transcript log) of this agent.',
    inputSchema: { query: z.string().min(1).max(4000), limit: z.number().int().min(1).max(50).optional(), sessionKey: z.string().min(1).max(200).optional() },
    annotations: { readOnlyHint: true },
  }, guarded(async (a) => {
    if (!deps.conversationSearch) {
      throw new StrataError({ code: 'UNSUPPORTED', message: 'conversation index not available: conversation search is not wired into this Strata build yet; use memory_recall instead.' });
    }
    // Scoped to the caller's agent; an unscoped caller (owner mode, no agent) searches every agent.
    const hits = await deps.conversationSearch({ query: a.query, limit: a.limit ?? 10, agentId: caller.agentId ?? undefined, sessionKey: a.sessionKey });
    return { results: hits };
  }));

  server.registerTool('context_bootstrap', {
    description: 'The <relevant-memories> context block for the start of a session: memories relevant to a query, or the most recent ones.',
    inputSchema: { query: z.string().min(1).max(4000).optional(), maxTokens: z.number().int().min(100).max(10_000).optional(), limit: z.number().int().min(1).max(50).optional() },
    annotations: { readOnlyHint: true },
  }, guarded(async (a) => {
    const maxTokens = a.maxTokens ?? 1500;
    const results = a.query
      ? (await engine.recall({ query: a.query, scopes: caller.scopes, limit: a.limit ?? 10 })).results
      : (await engine.list({ scopes: caller.scopes, limit: a.limit ?? 20 })).map((record) => ({ record }));
    // Plain text, not JSON: the block is meant to be read by the model as is.
    return formatContextBlock({ results, maxTokens, now: new Date() }) || 'No memories in scope yet.';
  }));
}
