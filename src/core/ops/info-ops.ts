/** Operations about the caller and the store: whoami, stats, LLM usage. */
import { z } from 'zod';
import { summarizeUsage } from '../llm/usage-log.js';
import { isoDate } from './inputs.js';
import { defineOperation } from './operation.js';
import type { OpsConfig } from './limits.js';

export const whoami = defineOperation({
  name: 'whoami',
  access: 'read',
  description: 'Who this host acts as: the agent, the scopes it reads and writes, and where writes go by default.',
  input: () => z.strictObject({}),
  run: async (ctx) => ({
    agent: ctx.caller.agentId,
    scopes: ctx.caller.scopes,
    writeScope: ctx.caller.writeScope,
    owner: ctx.caller.owner,
  }),
});

export interface StatsResult {
  agent: string | null;
  /** The scopes counted (an owner: every scope in the store). */
  scopes: string[];
  owner: boolean;
  /** Current memories visible to the caller. */
  memories: number;
  byScope: Record<string, number>;
  byCategory: Record<string, number>;
  embedder: { id: string; dimensions: number };
  /** The LLM distillation, scenes, summaries and the journal use; `provider: 'none'` when there is none. */
  llm: { provider: string; model?: string; configured: boolean };
  /** Whole-table storage figures are shown to an owner only: they count every scope. */
  store: {
    provider: string;
    rows?: number;
    fragments?: number;
    indexes?: Array<{ name: string; type: string; columns: string[] }>;
    diskBytes?: number;
  };
}

function llmOf(config: OpsConfig): StatsResult['llm'] {
  const provider = config.llm?.provider ?? 'none';
  // Only names: keys and URLs stay out of every result.
  return { provider, ...(config.llm?.model ? { model: config.llm.model } : {}), configured: provider !== 'none' };
}

export const stats = defineOperation({
  name: 'stats',
  access: 'read',
  description: 'Counts of memories in your scopes (by scope and category), and the embedder and store in use.',
  tool: { name: 'memory_stats', title: 'Memory stats' },
  input: () => z.strictObject({}),
  async run(ctx): Promise<StatsResult> {
    const scopes = await ctx.readScopes();
    // Every count is limited to the scopes read: another agent's scope never shows, not even as 0.
    const s = await ctx.engine.stats({ scopes });
    const base = {
      agent: ctx.caller.agentId,
      scopes,
      owner: ctx.caller.owner,
      memories: s.current,
      byScope: s.byScope,
      byCategory: s.byCategory,
      embedder: s.embedder,
      llm: llmOf(ctx.engine.config),
    };
    if (!ctx.caller.owner) return { ...base, store: { provider: s.store.provider } };
    const all = await ctx.engine.stats();
    return {
      ...base,
      store: { provider: s.store.provider, rows: all.rows, fragments: all.fragments, indexes: all.indexes, diskBytes: all.diskBytes },
    };
  },
  text: (r) =>
    `${r.memories} memories in ${r.scopes.length} scope(s) for ${r.agent ?? '(no agent)'}: ` +
    `${Object.entries(r.byScope)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. Embedder ${r.embedder.id}, store ${r.store.provider}.`,
});

export const usage = defineOperation({
  name: 'usage',
  access: 'read',
  description: 'LLM usage and cost of this Strata home (distillation, organiser, summaries), optionally since a date.',
  input: () => z.strictObject({ since: isoDate.optional() }),
  // A property of the install, not of a scope: no memory text or scope name is in it.
  run: (ctx, a) => summarizeUsage({ home: ctx.engine.home, log: ctx.engine.usageLog, since: a.since ? new Date(a.since) : undefined }),
});
