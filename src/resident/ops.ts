/**
 * The operations the resident process serves: the engine's operations table (`ops.run`, for the
 * MCP server and the CLI, see operations.ts) and the hosts' own (Claude Code's hooks).
 */
import { resolveCaller } from '../core/caller.js';
import { isOpName, type OpName } from '../core/ops/index.js';
import { loadConfig } from '../config/load.js';
import { configFingerprint } from './fingerprint.js';
import { InvalidArgumentError } from '../errors/index.js';
import { claudeCodeResidentOps } from '../hosts/claude-code/resident-ops.js';
import type { Strata } from '../strata.js';
import type { ResidentOp } from './server.js';

/** The resident cannot serve this request as asked; the caller runs it in its own process. */
export class ResidentMismatchError extends Error {
  readonly code = 'RESIDENT_MISMATCH';
}

/** What `ops.run` carries besides the operation: who is asking, as the caller resolved it. */
interface RunRequest {
  name: string;
  input?: unknown;
  /** The history log's actor (`cli`, `mcp`); a label, not a permission. */
  actor?: string;
  /** The caller's scopes and write scope as it resolved them: the resident must resolve the same. */
  expect?: { scopes: string[]; writeScope: string };
  /** configFingerprint of the caller's effective config. */
  config?: string;
}

const ACTOR = /^[a-z][a-z0-9-]{0,31}$/;

function runRequest(raw: unknown): RunRequest {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof r.name !== 'string' || !isOpName(r.name)) {
    throw new InvalidArgumentError({ argument: 'name', message: `ops.run: unknown operation ${JSON.stringify(r.name)}.` });
  }
  const expect = r.expect as RunRequest['expect'];
  return {
    name: r.name,
    input: r.input,
    actor: typeof r.actor === 'string' && ACTOR.test(r.actor) ? r.actor : undefined,
    expect: expect && Array.isArray(expect.scopes) && typeof expect.writeScope === 'string' ? expect : undefined,
    config: typeof r.config === 'string' ? r.config : undefined,
  };
}

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

/**
 * `{ name, input }` -> `strata.as(caller).run(name, input)`: the same validation, limits and scope
 * rules as every host. The caller is resolved here, by the one resolver, from the request's agent
 * (null: no agent, never this process's default) and operator scopes; owner mode is never granted
 * through the socket. A caller that resolved itself differently, or loaded another config, is
 * refused (RESIDENT_MISMATCH) and runs in its own process instead.
 */
function runOperation(): ResidentOp<Strata> {
  let ownConfig: Promise<string> | undefined;
  return async (ctx, raw) => {
    const request = runRequest(raw);
    const strata = await ctx.engine();
    if (request.config !== undefined) {
      // The config this process loaded, before the resident's own overrides (interactive embed timeout, host LLM).
      ownConfig ??= loadConfig({ home: ctx.home }).then((l) => configFingerprint(l.config));
      if (request.config !== (await ownConfig)) throw new ResidentMismatchError('the resident runs with another configuration');
    }
    const { agentId } = ctx.caller;
    const config = agentId === null ? { scopes: { ...strata.config.scopes, defaultAgent: undefined } } : strata.config;
    const caller = resolveCaller({ config, agentId: agentId ?? undefined, scopes: ctx.caller.scopes });
    if (request.expect && (!sameScopes(request.expect.scopes, caller.scopes) || request.expect.writeScope !== caller.writeScope)) {
      throw new ResidentMismatchError(`the resident resolves this caller to ${caller.scopes.join(', ')}`);
    }
    const result = await strata.as(caller, { actor: request.actor ?? 'resident' }).run(request.name as OpName, request.input);
    if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
      throw new ResidentMismatchError(`${request.name} streams its result: run it in the caller's process`);
    }
    return result;
  };
}

/** Memories per scope, counts only: the CLI's "more in other scopes" hint. */
const scopeCounts: ResidentOp<Strata> = async (ctx) => (await (await ctx.engine()).stats()).byScope;

export function residentOps(): Record<string, ResidentOp<Strata>> {
  return { 'ops.run': runOperation(), 'store.byScope': scopeCounts, ...claudeCodeResidentOps() };
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
