/**
 * Which configuration a process runs with, as a short hash. The resident serves an operation only
 * to a caller that loaded the same effective config (config.json plus `STRATA_*` environment):
 * a CLI run with `STRATA_RECALL_LIMIT=3` must not get the resident's other limits. The default
 * agent is left out: identity travels with each request and is resolved by the one resolver.
 */
import { createHash } from 'node:crypto';

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function configFingerprint(config: object): string {
  const { scopes, ...rest } = config as { scopes?: Record<string, unknown> };
  const { defaultAgent: _identity, ...grants } = scopes ?? {};
  return createHash('sha256')
    .update(JSON.stringify(stable({ ...rest, scopes: grants })))
    .digest('hex')
    .slice(0, 32);
}
