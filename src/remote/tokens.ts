/**
 * Per-agent bearer tokens for `strata serve`. A token names one agent and carries what that agent
 * may read: its own scopes (`global`, `agent:<id>`), the operator's grants for it, and extra
 * non-agent scopes given at creation; `--scopes` narrows that set. A token never carries another
 * agent's `agent:<id>` scope, and owner mode only comes from a token created with `--owner`.
 *
 * The secret is shown once; only its sha256 is stored (tokens are 256 random bits, so a slow hash
 * adds nothing). `strata_<id>_<secret>`: the id is public (list, revoke, logs), the secret is not.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { assertAgentId, type Caller } from '../core/caller.js';
import { agentScopes, assertScope, assertScopeSet } from '../core/scope.js';
import { InvalidArgumentError, StrataError } from '../errors/index.js';

export interface TokenRecord {
  /** Public id (12 hex chars): what `list` shows and `revoke` takes. */
  id: string;
  /** sha256 of the whole token, hex. */
  hash: string;
  /** The agent the token acts as; null only for an owner token made without one. */
  agentId: string | null;
  /** When set, the token reads only these of the agent's scopes. */
  scopes: string[] | null;
  /** Extra scopes the token carries beyond the agent's own (never another agent's `agent:` scope). */
  grants: string[];
  /** Owner mode: every scope and every agent's conversations. Only `strata tokens create --owner`. */
  owner: boolean;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** What `list` shows: never the hash. */
export type TokenInfo = Omit<TokenRecord, 'hash'>;

export interface CreateTokenOptions {
  agentId?: string | null;
  scopes?: readonly string[];
  grants?: readonly string[];
  owner?: boolean;
  label?: string;
}

/** Where tokens live: the store's database on Postgres (shared by every serve process), else the home. */
export interface TokenRegistry {
  readonly location: string;
  add(record: TokenRecord): Promise<void>;
  /** The record with this public id, revoked or not. */
  find(id: string): Promise<TokenRecord | null>;
  list(): Promise<TokenRecord[]>;
  /** Marks the token revoked; false when no such token. Idempotent. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Whether any unrevoked token exists (then every request must carry one). */
  hasActive(): Promise<boolean>;
  close(): Promise<void>;
}

const TOKEN_PATTERN = /^strata_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Validates the options and makes a new token and its record (the token itself is never stored). */
export function mintToken(options: CreateTokenOptions, now = new Date()): { token: string; record: TokenRecord } {
  const owner = options.owner === true;
  const agentId = options.agentId ? assertAgentId(options.agentId, '--agent') : null;
  if (!agentId && !owner)
    throw new InvalidArgumentError({
      argument: '--agent',
      message: 'A token acts as one agent: pass --agent <id> (or --owner for an admin token).',
    });
  const grants = options.grants && options.grants.length > 0 ? assertScopeSet(options.grants.map(assertScope)) : [];
  for (const g of grants) {
    if (g.startsWith('agent:') && g !== `agent:${agentId}` && !owner)
      throw new InvalidArgumentError({
        argument: '--grants',
        code: 'FORBIDDEN_SCOPE',
        message: `A token cannot carry another agent's scope (${g}): share through project:, user: or custom: scopes, or grant it in the server's scopes.agentGrants.`,
      });
  }
  const scopes = options.scopes && options.scopes.length > 0 ? assertScopeSet(options.scopes.map(assertScope)) : null;
  const id = randomBytes(6).toString('hex');
  const token = `strata_${id}_${randomBytes(32).toString('base64url')}`;
  const record: TokenRecord = {
    id,
    hash: hashToken(token),
    agentId,
    scopes,
    grants,
    owner,
    label: options.label?.trim() || null,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  return { token, record };
}

export type TokenFailure = 'MISSING_TOKEN' | 'INVALID_TOKEN' | 'TOKEN_REVOKED';

/** A request's token was missing, unknown, or revoked: HTTP 401 with this code. */
export class TokenError extends StrataError {
  readonly reason: TokenFailure;
  constructor(reason: TokenFailure, message: string) {
    super({ code: 'UNAUTHORIZED', message, details: { reason } });
    this.name = 'TokenError';
    this.reason = reason;
  }
}

/** The record a presented token belongs to; throws TokenError when unknown or revoked. */
export async function verifyToken(registry: TokenRegistry, token: string): Promise<TokenRecord> {
  const match = TOKEN_PATTERN.exec(token.trim());
  const invalid = () =>
    new TokenError('INVALID_TOKEN', 'The bearer token is not one this service issued (strata tokens list shows the live ones).');
  if (!match) throw invalid();
  const record = await registry.find(match[1]!);
  if (!record) throw invalid();
  const a = Buffer.from(record.hash, 'hex');
  const b = Buffer.from(hashToken(token.trim()), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw invalid();
  if (record.revokedAt)
    throw new TokenError('TOKEN_REVOKED', `Token ${record.id} was revoked at ${record.revokedAt}; ask the operator for a new one.`);
  return record;
}

/**
 * The caller a token acts as. Its scopes: the agent's own, the server's configured grants for it,
 * the token's grants; narrowed to the token's `scopes` when it has them. Nothing a request sends
 * can widen this (the operations layer only narrows).
 */
export function callerOfToken(record: TokenRecord, config: { scopes: { agentGrants: Record<string, string[]> } }): Caller {
  const agentId = record.agentId;
  const full = agentId
    ? agentScopes(agentId, [...(config.scopes.agentGrants[agentId] ?? []), ...record.grants])
    : assertScopeSet(['global', ...record.grants]);
  const scopes = record.scopes ? full.filter((s) => record.scopes!.includes(s)) : full;
  const own = agentId ? `agent:${agentId}` : 'global';
  const narrowed = scopes.length > 0 ? scopes : ['global'];
  return {
    agentId,
    scopes: record.owner ? full : narrowed,
    writeScope: (record.owner ? full : narrowed).includes(own) ? own : narrowed[0]!,
    owner: record.owner,
  };
}

export function tokenInfo(record: TokenRecord): TokenInfo {
  const { hash: _hash, ...info } = record;
  return info;
}
