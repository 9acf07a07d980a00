/**
 * With no --agent, --scope or --all-scopes, a reading command says on stderr whose scopes it read
 * and how many memories sit in scopes it did not read, so "no memories" after a distillation (which
 * files them under agent:<host>) is never a silent dead end.
 */
import type { Command } from 'commander';
import { describeCaller, type Caller } from '../core/caller.js';
import { globals, type OpsSession } from './context.js';

export function usedDefaultScopes(cmd: Command): boolean {
  const g = globals(cmd);
  return g.agent === undefined && (g.scope ?? []).length === 0 && !g.allScopes;
}

export async function scopeHint(session: Pick<OpsSession, 'countsByScope'>, caller: Caller): Promise<string> {
  const readable = new Set(caller.scopes);
  const byScope = await session.countsByScope();
  const hidden = Object.entries(byScope)
    .filter(([scope, n]) => !readable.has(scope) && n > 0)
    .sort((a, b) => b[1] - a[1]);
  const base = `reading as ${describeCaller(caller)}${caller.agentId ? '' : ' (no agent configured: set scopes.defaultAgent or STRATA_AGENT_ID)'}`;
  if (hidden.length === 0) return base;
  const total = hidden.reduce((a, [, n]) => a + n, 0);
  const agent = hidden.map(([s]) => s).find((s) => s.startsWith('agent:'));
  const list =
    hidden
      .slice(0, 5)
      .map(([s, n]) => `${s} (${n})`)
      .join(', ') + (hidden.length > 5 ? ', ...' : '');
  return `${base}; ${total} more in other scopes: ${list}. Pass ${agent ? `--agent ${agent.slice('agent:'.length)}` : '--scope <scope>'} or --all-scopes to see them.`;
}

/** Prints the hint when the command ran on the default scopes; never fails the command. */
export async function printScopeHint(cmd: Command, session: Pick<OpsSession, 'countsByScope'>, caller: Caller): Promise<void> {
  if (!usedDefaultScopes(cmd)) return;
  const hint = await scopeHint(session, caller).catch(() => undefined);
  if (hint) process.stderr.write(hint + '\n');
}
