/**
 * The agent tools. Each one validates its parameters with zod (the JSON schema OpenClaw shows the
 * model is generated from the same definition), maps them onto one engine call inside the calling
 * agent's scopes, and returns failures as a result the model can read instead of throwing.
 * The agent comes from OpenClaw's tool context, never from a parameter: `scope` may only narrow.
 */
import { z } from 'zod';
import { StrataError } from '../../errors/index.js';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import type { Strata } from '../../strata.js';
import { allowedScope, narrowScopes, resolveCaller, type Caller } from '../mcp/caller.js';
import { compactHit, compactRecord, scopedStats } from '../mcp/format.js';
import type { OpenClawTool, ToolFactory, ToolFactoryContext, ToolResult } from './types.js';

const ACTOR = 'openclaw';
const category = z.enum(MEMORY_CATEGORIES);
const unit = z.number().min(0).max(1);
const scope = z.string().max(200).describe('Narrow to one of your scopes (global, agent:<you>, granted scopes). Omitted: all of them; writes go to agent:<you>.');
const tags = z.array(z.string().min(1).max(64)).max(32);

interface ToolDef<S extends z.ZodType> {
  name: string;
  label: string;
  description: string;
  schema: S;
  run(args: z.output<S>, deps: { strata: Strata; caller: Caller }): Promise<{ text: string; details: unknown }>;
}

function def<S extends z.ZodType>(d: ToolDef<S>): ToolDef<S> {
  return d;
}

const json = (value: unknown) => JSON.stringify(value, null, 1);

export const TOOL_DEFS = [
  def({
    name: 'memory_recall', label: 'Memory recall',
    description: 'Search long-term memory for facts, preferences and decisions relevant to a query.',
    schema: z.strictObject({ query: z.string().min(1).max(4000).describe('Search query'), limit: z.number().int().min(1).max(20).optional(), scope: scope.optional(), categories: z.array(category).max(8).optional() }),
    async run(a, { strata, caller }) {
      const r = await strata.recall({ query: a.query, scopes: narrowScopes(caller, a.scope), limit: a.limit ?? 5, categories: a.categories });
      const hits = r.results.map(compactHit);
      const lines = hits.map((h, i) => `${i + 1}. [${h.category}] ${h.text} (${Math.round(h.score * 100)}%) id=${h.id}`);
      return { text: hits.length ? `Found ${hits.length} memories:\n\n${lines.join('\n')}` : 'No relevant memories found.', details: { count: hits.length, memories: hits } };
    },
  }),
  def({
    name: 'memory_store', label: 'Memory store',
    description: 'Store one durable memory (a fact, preference, decision, rule...). Duplicates are reported, not stored twice.',
    schema: z.strictObject({ text: z.string().min(1).max(20_000), category: category.optional(), importance: unit.optional(), tags: tags.optional(), scope: scope.optional() }),
    async run(a, { strata, caller }) {
      const target = a.scope === undefined ? caller.writeScope : allowedScope(caller, a.scope);
      const source = { kind: 'manual' as const, ...(caller.agentId ? { agentId: caller.agentId } : {}) };
      const r = await strata.remember({ text: a.text, scope: target, category: a.category, importance: a.importance, tags: a.tags, source, actor: ACTOR });
      const details = { action: r.action, id: r.id, ...(r.duplicateOf ? { duplicateOf: r.duplicateOf } : {}), scope: target };
      return { text: r.action === 'duplicate' ? `Already stored as ${r.duplicateOf ?? r.id}.` : `Stored memory ${r.id} in ${target}.`, details };
    },
  }),
  def({
    name: 'memory_update', label: 'Memory update',
    description: 'Change a memory in place (text, category, importance, tags, or move it to another of your scopes).',
    schema: z.strictObject({ id: z.string().min(1).max(64), text: z.string().min(1).max(20_000).optional(), category: category.optional(), importance: unit.optional(), tags: tags.optional(), scope: scope.optional() }),
    async run(a, { strata, caller }) {
      const record = await strata.update({ id: a.id, actor: ACTOR, scopes: caller.scopes, text: a.text, category: a.category, importance: a.importance, tags: a.tags, scope: a.scope === undefined ? undefined : allowedScope(caller, a.scope) });
      return { text: `Updated memory ${record.id}.`, details: { action: 'updated', memory: compactRecord(record) } };
    },
  }),
  def({
    name: 'memory_forget', label: 'Memory forget',
    description: 'Delete memories by id, or by query. A query only lists candidates unless confirm is true.',
    schema: z.strictObject({ memoryId: z.string().min(1).max(64).optional(), ids: z.array(z.string().min(1).max(64)).min(1).max(100).optional(), query: z.string().min(1).max(4000).optional(), confirm: z.boolean().optional() }),
    async run(a, { strata, caller }) {
      const ids = [...(a.ids ?? []), ...(a.memoryId ? [a.memoryId] : [])];
      const out = await strata.forget({ ids: ids.length ? ids : undefined, query: a.query, scopes: caller.scopes, confirm: a.confirm, actor: ACTOR });
      const matches = out.matches.map(compactRecord);
      if (out.deleted > 0) return { text: `Forgot ${out.deleted} memories.`, details: { action: 'deleted', deleted: out.deleted, ids: matches.map((m) => m.id) } };
      if (ids.length) return { text: 'No such memory in your scopes.', details: { action: 'not_found', deleted: 0 } };
      return { text: `Candidates (call again with confirm: true or memoryId to delete):\n${json(matches)}`, details: { action: 'candidates', candidates: matches } };
    },
  }),
  def({
    name: 'memory_list', label: 'Memory list',
    description: 'List memories, newest first, optionally filtered by scope, category and tag.',
    schema: z.strictObject({ scope: scope.optional(), categories: z.array(category).max(8).optional(), tags: tags.optional(), limit: z.number().int().min(1).max(100).optional(), offset: z.number().int().min(0).max(1_000_000).optional() }),
    async run(a, { strata, caller }) {
      const records = await strata.list({ scopes: narrowScopes(caller, a.scope), categories: a.categories, tags: a.tags, limit: a.limit ?? 20, offset: a.offset ?? 0 });
      const memories = records.map(compactRecord);
      return { text: memories.length ? json(memories) : 'No memories.', details: { count: memories.length, memories } };
    },
  }),
  def({
    name: 'memory_stats', label: 'Memory stats',
    description: 'Counts of memories in your scopes, and the embedder and store in use.',
    schema: z.strictObject({}),
    async run(_a, { strata, caller }) {
      const stats = await strata.stats({ scopes: caller.scopes });
      const details = { agent: caller.agentId, scopes: caller.scopes, ...scopedStats(stats, caller.scopes, stats.current), byCategory: stats.byCategory };
      return { text: json(details), details };
    },
  }),
];

export const TOOL_NAMES = TOOL_DEFS.map((d) => d.name);

function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

function failure(error: unknown): ToolResult {
  const code = StrataError.isInstance(error) ? error.code : 'ERROR';
  const message = error instanceof z.ZodError
    ? `Invalid parameters: ${error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`
    : (error as Error)?.message ?? String(error);
  return { content: [{ type: 'text', text: `error [${error instanceof z.ZodError ? 'INVALID_ARGUMENT' : code}]: ${message}` }], details: { error: { code: error instanceof z.ZodError ? 'INVALID_ARGUMENT' : code, message } } };
}

export interface ToolFactoryDeps {
  strata: () => Promise<Strata>;
  /** Agent used when the tool context names none. */
  defaultAgent: string;
}

/** One factory per tool: OpenClaw calls it per agent run, so the caller's identity is fixed per run. */
export function createToolFactories(deps: ToolFactoryDeps): Array<{ name: string; factory: ToolFactory }> {
  return TOOL_DEFS.map((d) => {
    const parameters = parametersOf(d.schema);
    const factory: ToolFactory = (ctx: ToolFactoryContext): OpenClawTool => ({
      name: d.name,
      label: d.label,
      description: d.description,
      parameters,
      async execute(_toolCallId, params) {
        try {
          const args = (d.schema as z.ZodType).parse(params ?? {});
          const strata = await deps.strata();
          const caller = resolveCaller({ config: strata.config, agentId: ctx.agentId || deps.defaultAgent, env: {} });
          const out = await (d.run as (a: unknown, x: { strata: Strata; caller: Caller }) => Promise<{ text: string; details: unknown }>)(args, { strata, caller });
          return { content: [{ type: 'text', text: out.text }], details: out.details };
        } catch (error) {
          return failure(error);
        }
      },
    });
    return { name: d.name, factory };
  });
}
