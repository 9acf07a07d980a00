/**
 * Who a request acts as. No token configured: the server's caller. The operator's
 * `STRATA_HTTP_TOKEN`: the server's caller too. A per-agent token: that token's agent, scopes and
 * grants, re-checked against the registry on every request (so a revocation made by any process on
 * the same database applies at once). Once any per-agent token exists, a request without one is
 * refused: otherwise the anonymous server caller would make every token's limits moot.
 */
import type { Caller } from '../../core/caller.js';
import type { CallerOperations } from '../../core/ops/index.js';
import { callerOfToken, TokenError, verifyToken, type TokenRecord, type TokenRegistry } from '../../remote/tokens.js';
import type { Strata } from '../../strata.js';
import { bearerMatches } from '../shared/listen.js';

const MAX_VIEWS = 1000;

export function createAuthenticator(options: {
  strata: Strata;
  caller: Caller;
  token?: string;
  tokens?: TokenRegistry;
}): (authorization: string | null) => Promise<CallerOperations> {
  const { strata, token, tokens } = options;
  const serverOps = strata.as(options.caller, { actor: 'api' });
  // One view per token state (a view caches the input schemas); keyed by everything the caller depends on.
  const views = new Map<string, CallerOperations>();
  const viewOf = (record: TokenRecord): CallerOperations => {
    const key = JSON.stringify([record.id, record.agentId, record.scopes, record.grants, record.owner]);
    let ops = views.get(key);
    if (!ops) {
      if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value!);
      ops = strata.as(callerOfToken(record, strata.config), { actor: record.agentId ? `api:${record.agentId}` : 'api' });
      views.set(key, ops);
    }
    return ops;
  };
  return async (authorization) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (!bearer) {
      if (token || (tokens && (await tokens.hasActive())))
        throw new TokenError(
          'MISSING_TOKEN',
          'This service needs a bearer token: send Authorization: Bearer <token> (strata tokens create --agent <id>).',
        );
      return serverOps;
    }
    if (token && bearerMatches(authorization, token)) return serverOps;
    if (!tokens) throw new TokenError('INVALID_TOKEN', 'Wrong bearer token.');
    return viewOf(await verifyToken(tokens, bearer));
  };
}
