/**
 * Who is calling a host. Identity is fixed when the host starts (flag, environment or config),
 * never taken from a request: a request may only narrow to scopes the caller already has.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import { agentScopes, assertScope, assertScopeSet } from '../../core/scope.js';
import type { StrataConfig } from '../../config/schema.js';

export interface Caller {
  /** null: no agent configured; the caller reads and writes `global` only. */
  agentId: string | null;
  /** Every scope the caller may read (and write to). */
  scopes: string[];
  /** Where writes go when a request names no scope. */
  writeScope: string;
}

export interface ResolveCallerOptions {
  config: Pick<StrataConfig, 'scopes'>;
  /** Explicit `--agent`; wins over the environment and config. */
  agentId?: string;
  /** Operator-given `--scope` values: added to the agent's scopes; the first becomes the write scope. */
  extraScopes?: string[];
  /** Reads `STRATA_AGENT_ID`; pass `{}` to ignore the environment. */
  env?: NodeJS.ProcessEnv;
}

export function resolveCaller(options: ResolveCallerOptions): Caller {
  const env = options.env ?? process.env;
  const agentId = options.agentId || env.STRATA_AGENT_ID || options.config.scopes.defaultAgent || null;
  if (agentId !== null) assertScope(`agent:${agentId}`);
  const extra = (options.extraScopes ?? []).map(assertScope);
  const base = agentId ? agentScopes(agentId, options.config.scopes.agentGrants[agentId] ?? []) : extra.length > 0 ? [] : ['global'];
  const scopes = assertScopeSet([...extra, ...base]);
  const writeScope = extra[0] ?? (agentId ? `agent:${agentId}` : 'global');
  return { agentId, scopes, writeScope };
}

/** Raised when a request names a scope the caller does not hold (HTTP maps it to 403). */
export const SCOPE_NOT_ALLOWED = 'scope-not-allowed';

function notAllowed(scope: string, caller: Caller): InvalidArgumentError {
  const error = new InvalidArgumentError({
    argument: 'scope',
    code: 'INVALID_SCOPE',
    message: `Scope ${JSON.stringify(scope)} is not one of this caller's scopes (${caller.scopes.join(', ')}); a request can only narrow access, never widen it.`,
  });
  error.details!.reason = SCOPE_NOT_ALLOWED;
  return error;
}

/** Validates one requested scope and checks the caller holds it. */
export function allowedScope(caller: Caller, scope: string): string {
  assertScope(scope);
  if (!caller.scopes.includes(scope)) throw notAllowed(scope, caller);
  return scope;
}

/** The read scopes for a request: the caller's, or the requested subset of them. */
export function narrowScopes(caller: Caller, requested?: string | readonly string[]): string[] {
  if (requested === undefined) return caller.scopes;
  const list = typeof requested === 'string' ? [requested] : [...requested];
  if (list.length === 0) return caller.scopes;
  return assertScopeSet(list.map((s) => allowedScope(caller, s)));
}

export function isScopeNotAllowed(error: unknown): boolean {
  return (error as { details?: Record<string, unknown> } | null)?.details?.reason === SCOPE_NOT_ALLOWED;
}
