import { describe, expect, it } from 'vitest';
import { allowedScope, isScopeNotAllowed, narrowScopes, resolveCaller } from '../../src/hosts/mcp/caller.js';
import { isLoopbackHost, bearerMatches } from '../../src/hosts/http/listen.js';

const config = { scopes: { agentGrants: { coder: ['project:strata'] }, defaultAgent: 'main' } };

describe('caller identity', () => {
  it('takes the agent from the flag, then the environment, then config', () => {
    expect(resolveCaller({ config, agentId: 'coder', env: { STRATA_AGENT_ID: 'x' } })).toEqual({ agentId: 'coder', scopes: ['global', 'agent:coder', 'project:strata'], writeScope: 'agent:coder' });
    expect(resolveCaller({ config, env: { STRATA_AGENT_ID: 'x' } }).agentId).toBe('x');
    expect(resolveCaller({ config, env: {} }).agentId).toBe('main');
    expect(resolveCaller({ config: { scopes: { agentGrants: {} } }, env: {} })).toEqual({ agentId: null, scopes: ['global'], writeScope: 'global' });
    expect(() => resolveCaller({ config, agentId: "a' OR 1=1", env: {} })).toThrow(/Invalid scope/);
  });

  it('lets a request narrow but never widen', () => {
    const caller = resolveCaller({ config, agentId: 'coder', env: {} });
    expect(narrowScopes(caller)).toEqual(caller.scopes);
    expect(narrowScopes(caller, ['project:strata'])).toEqual(['project:strata']);
    expect(allowedScope(caller, 'global')).toBe('global');
    let error: unknown;
    try {
      narrowScopes(caller, ['global', 'agent:other']);
    } catch (e) {
      error = e;
    }
    expect(isScopeNotAllowed(error)).toBe(true);
    expect(() => narrowScopes(caller, "x' OR '1'='1")).toThrow(/Invalid scope/);
  });
});

describe('bind rules', () => {
  it('knows loopback hosts and checks bearer tokens exactly', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.5', '::', 'example.com', '127.0.0.1.evil.com']) expect(isLoopbackHost(h), h).toBe(false);
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('Bearer abcd', 'abc')).toBe(false);
    expect(bearerMatches('Basic abc', 'abc')).toBe(false);
    expect(bearerMatches(null, 'abc')).toBe(false);
  });
});
