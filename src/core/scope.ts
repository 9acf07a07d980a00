import { InvalidArgumentError } from '../errors/index.js';

/**
 * Scope grammar: `global`, `agent:<id>`, `user:<id>`, `project:<id>`, `session:<key>`, `custom:<name>`.
 * Ids are restricted to a safe alphabet so a scope can never smuggle syntax into a store filter
 * (stores still escape them: defence in depth).
 */
export const SCOPE_KINDS = ['agent', 'user', 'project', 'session', 'custom'] as const;
export type ScopeKind = 'global' | (typeof SCOPE_KINDS)[number];

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@\-/:]{0,127}$/;
const SCOPE_PATTERN = /^(agent|user|project|session|custom):(.+)$/;

export function parseScope(scope: string): { kind: ScopeKind; id: string | null } {
  if (scope === 'global') return { kind: 'global', id: null };
  const match = SCOPE_PATTERN.exec(scope);
  if (!match || !ID_PATTERN.test(match[2] ?? '')) {
    throw new InvalidArgumentError({
      argument: 'scope',
      code: 'INVALID_SCOPE',
      message:
        `Invalid scope ${JSON.stringify(scope)}: use global, agent:<id>, user:<id>, project:<id>, session:<key> or custom:<name> ` +
        `(ids: letters, digits and . _ @ - / :, at most 128 characters).`,
    });
  }
  return { kind: match[1] as ScopeKind, id: match[2] ?? null };
}

export function assertScope(scope: string): string {
  parseScope(scope);
  return scope;
}

export function isValidScope(scope: string): boolean {
  try {
    parseScope(scope);
    return true;
  } catch {
    return false;
  }
}

/** Validates a read scope set: must be non-empty (never "everything") and every entry valid. */
export function assertScopeSet(scopes: readonly string[] | undefined, argument = 'scopes'): string[] {
  if (!scopes || scopes.length === 0) {
    throw new InvalidArgumentError({
      argument,
      code: 'INVALID_SCOPE',
      message: 'No scopes given: every read needs an explicit scope set (e.g. --scope global or --agent <id>).',
    });
  }
  return [...new Set(scopes.map(assertScope))];
}

/** Whether `agentId` forms a valid `agent:<id>` scope (the only spelling of an agent Strata stores). */
export function isValidAgentId(agentId: unknown): agentId is string {
  // No `..`: agent ids also name folders (scenes, persona, capture state).
  return typeof agentId === 'string' && ID_PATTERN.test(agentId) && !agentId.includes('..');
}

/**
 * Rejects an agent id that cannot form a scope. Such ids are refused rather than mapped or filed
 * under `global`: an agent id is an identity for isolation, and a second spelling (or a fallback)
 * would let one agent's memories land where other agents read them.
 */
export function assertAgentId(agentId: unknown, argument = 'agentId'): string {
  if (isValidAgentId(agentId)) return agentId;
  throw new InvalidArgumentError({
    argument,
    code: 'INVALID_AGENT_ID',
    message:
      `Invalid agent id ${JSON.stringify(agentId)}: an agent id must be 1-128 characters of letters, digits and . _ @ - / : (no ".."), ` +
      `starting with a letter or digit (it becomes the scope agent:<id>). Rename the agent or pass a valid --agent.`,
  });
}

/** The scopes an agent reads by default: global, its own agent scope, plus configured grants. */
export function agentScopes(agentId: string, grants: readonly string[] = []): string[] {
  return assertScopeSet(['global', `agent:${agentId}`, ...grants]);
}
