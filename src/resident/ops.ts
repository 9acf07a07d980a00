/**
 * The operations the resident process serves: the engine's operations table (`ops.run`, for the
 * MCP server and the CLI to route through later) and the hosts' own (Claude Code's hooks).
 */
import { resolveCaller } from '../core/caller.js';
import { isOpName } from '../core/ops/index.js';
import { InvalidArgumentError } from '../errors/index.js';
import { claudeCodeResidentOps } from '../hosts/claude-code/resident-ops.js';
import type { Strata } from '../strata.js';
import type { ResidentOp } from './server.js';

/**
 * `{ name, input }` -> `strata.as(caller).run(name, input)`: the same validation, limits and scope
 * rules as every host. The caller is the request's agent resolved by the one resolver; owner mode
 * is never granted through the socket.
 */
const runOperation: ResidentOp<Strata> = async (ctx, raw) => {
  const { name, input } = (typeof raw === 'object' && raw !== null ? raw : {}) as { name?: unknown; input?: unknown };
  if (typeof name !== 'string' || !isOpName(name)) {
    throw new InvalidArgumentError({ argument: 'name', message: `ops.run: unknown operation ${JSON.stringify(name)}.` });
  }
  const strata = await ctx.engine();
  const caller = resolveCaller({ config: strata.config, agentId: ctx.caller.agentId ?? null });
  return strata.as(caller, { actor: 'resident' }).run(name, input);
};

export function residentOps(): Record<string, ResidentOp<Strata>> {
  return { 'ops.run': runOperation, ...claudeCodeResidentOps() };
}

/** A scope that holds nothing: the query is embedded (model loaded) and both indexes are opened. */
const WARM_UP_SCOPE = 'session:strata-resident-warm-up';

/** Until a recall really used the query vector (the model may take longer than one recall's embed timeout). */
export async function warmUp(strata: Strata): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const result = await strata.recall({ query: 'warm up the embedding model', scopes: [WARM_UP_SCOPE], limit: 1, explain: true });
    const vector = result.explain?.channels.vector;
    if (!vector || vector.used || !/timed out|timeout/i.test(vector.note ?? '')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
