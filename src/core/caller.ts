/**
 * Who is calling the engine through a host. The one resolver every host uses (CLI, MCP, HTTP,
 * OpenClaw, Claude Code hooks). Identity is fixed when the host starts, never taken from a request:
 * a request may only narrow to scopes the caller already holds.
 *
 *   agent: explicit (flag or the host's own context) > `scopes.defaultAgent` (which the config
 *   loader fills from `STRATA_AGENT_ID`, then `STRATA_DEFAULT_AGENT`, then config.json) > the
 *   host's fallback > none.
 *
 * No agent is the narrowest caller there is: `global` (or only the operator-given scopes) and no
 * conversations at all. Owner mode (every scope, every agent's conversations) is never implied;
 * a host turns it on only when the operator asked (`--all-scopes`).
 */
import { InvalidArgumentError } from '../errors/index.js';
import { agentScopes, assertScope, assertScopeSet, isValidScope } from './scope.js';

export interface Caller {
  /** null: no agent; the caller reads `global` (plus operator-given scopes) and no conversations. */
  agentId: string | null;
  /** Every scope the caller may read and write (for an owner: the defaults of a request). */
  scopes: string[];
  /** Where writes go when a request names no scope. */
  writeScope: string;
  /** Owner mode: may name any scope, reads every scope by default and every agent's conversations. */
  owner: boolean;
}

export interface ResolveCallerOptions {
  config: { scopes: { defaultAgent?: string; agentGrants: Record<string, string[]> } };
  /** Explicit agent (`--agent`, the host's agent context); wins over config and environment. */
  agentId?: string | null;
  /** Operator-given `--scope` values: added to the caller's scopes; the first becomes the write scope. */
  scopes?: readonly string[];
  /** Owner mode, only when the operator asked for it (`--all-scopes`). */
  allScopes?: boolean;
  /** The host's own default agent, used when neither the flag nor the config names one. */
  fallbackAgentId?: string;
}

/** Rejects an agent id that cannot form `agent:<id>`: it is never mapped to `global` or anything else. */
export function assertAgentId(agentId: string, argument = 'agent'): string {
  if (!isValidScope(`agent:${agentId}`)) {
    throw new InvalidArgumentError({
      argument,
      message:
        `Invalid agent id ${JSON.stringify(agentId)}: an agent id must form the scope agent:<id> (letters, digits and . _ @ - / :, ` +
        `starting with a letter or digit, at most 128 characters). Pass another --agent or STRATA_AGENT_ID.`,
    });
  }
  return agentId;
}

export function resolveCaller(options: ResolveCallerOptions): Caller {
  const raw = options.agentId || options.config.scopes.defaultAgent || options.fallbackAgentId || null;
  const agentId = raw === null ? null : assertAgentId(raw);
  const extra = (options.scopes ?? []).map(assertScope);
  const base = agentId ? agentScopes(agentId, options.config.scopes.agentGrants[agentId] ?? []) : extra.length > 0 ? [] : ['global'];
  const scopes = assertScopeSet([...extra, ...base]);
  const writeScope = extra[0] ?? (agentId ? `agent:${agentId}` : 'global');
  return { agentId, scopes, writeScope, owner: options.allScopes === true };
}

/** Raised when a request names a scope the caller does not hold (HTTP maps it to 403). */
export function scopeNotAllowed(scope: string, caller: Caller): InvalidArgumentError {
  return new InvalidArgumentError({
    argument: 'scope',
    code: 'FORBIDDEN_SCOPE',
    message: `Scope ${JSON.stringify(scope)} is not one of this caller's scopes (${caller.scopes.join(', ')}); a request can only narrow access, never widen it.`,
  });
}

/** Validates one requested scope and checks the caller holds it (an owner holds every scope). */
export function allowedScope(caller: Caller, scope: string): string {
  assertScope(scope);
  if (!caller.owner && !caller.scopes.includes(scope)) throw scopeNotAllowed(scope, caller);
  return scope;
}

/**
 * The requested subset of the caller's scopes, or undefined when the request names none (the
 * caller's defaults apply; for an owner that means every scope, which only the store can list).
 */
export function requestedScopes(caller: Caller, requested?: string | readonly string[]): string[] | undefined {
  if (requested === undefined) return undefined;
  const list = typeof requested === 'string' ? [requested] : [...requested];
  if (list.length === 0) return undefined;
  return assertScopeSet(list.map((s) => allowedScope(caller, s)));
}

/** Whether the caller may read an agent's conversations, scenes and persona: it holds `agent:<id>`. */
export function canReadAgent(caller: Caller, agentId: string): boolean {
  return caller.owner || caller.agentId === agentId || caller.scopes.includes(`agent:${agentId}`);
}

/**
 * Agents whose conversations the caller may search: those whose `agent:<id>` scope it holds.
 * Undefined means every agent and is returned for an owner only. A caller without an agent and
 * without agent scopes gets an empty list: no conversations, never everyone's.
 */
export function conversationAgents(caller: Caller): string[] | undefined {
  if (caller.owner) return undefined;
  const agents = caller.scopes.filter((s) => s.startsWith('agent:')).map((s) => s.slice('agent:'.length));
  if (caller.agentId && !agents.includes(caller.agentId)) agents.unshift(caller.agentId);
  return agents;
}

/** One line for logs and startup banners: `coder [global, agent:coder]`, `(no agent) [global]`, `owner`. */
export function describeCaller(caller: Caller): string {
  const who = caller.agentId ?? '(no agent)';
  return caller.owner ? `${who}, owner mode (every scope and every agent's conversations)` : `${who} [${caller.scopes.join(', ')}]`;
}
