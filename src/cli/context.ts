import type { Command } from 'commander';
import { Strata, type StrataOpenOptions } from '../strata.js';
import { agentScopes, assertScope, assertScopeSet } from '../core/scope.js';

/** Options every command accepts (declared once on the root program). */
export interface GlobalOptions {
  home?: string;
  json?: boolean;
  verbose?: boolean;
  scope?: string[];
  agent?: string;
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

export async function openStrata(cmd: Command, extra: Omit<StrataOpenOptions, 'home'> = {}): Promise<Strata> {
  return Strata.open({ home: globals(cmd).home, ...extra });
}

/**
 * Read scopes: explicit `--scope` values plus, with `--agent`, that agent's scopes (global, its
 * own and configured grants). Without either: the configured default agent, else `global`.
 */
export function readScopes(strata: Strata, opts: GlobalOptions): string[] {
  const grants = (agent: string) => strata.config.scopes.agentGrants[agent] ?? [];
  const scopes = [...(opts.scope ?? [])];
  if (opts.agent) scopes.push(...agentScopes(opts.agent, grants(opts.agent)));
  if (scopes.length === 0) {
    const agent = strata.config.scopes.defaultAgent;
    scopes.push(...(agent ? agentScopes(agent, grants(agent)) : ['global']));
  }
  return assertScopeSet(scopes, '--scope');
}

/** Write scope: the first `--scope`, else the agent's own scope, else `global`. */
export function writeScope(opts: GlobalOptions): string {
  if (opts.scope && opts.scope.length > 0) return assertScope(opts.scope[0]!);
  if (opts.agent) return assertScope(`agent:${opts.agent}`);
  return 'global';
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export async function withStrata<T>(cmd: Command, fn: (strata: Strata) => Promise<T>, extra: Omit<StrataOpenOptions, 'home'> = {}): Promise<T> {
  const strata = await openStrata(cmd, extra);
  try {
    return await fn(strata);
  } finally {
    await strata.close();
  }
}
