import { describe, expect, it } from 'vitest';
import { allowedScope, conversationAgents, requestedScopes, resolveCaller } from '../../src/core/caller.js';
import { loadConfig } from '../../src/config/load.js';
import { isLoopbackHost, bearerMatches, originAllowed } from '../../src/hosts/shared/listen.js';
import { tempHome } from '../support/run-cli.js';

const config = { scopes: { agentGrants: { coder: ['project:strata'] }, defaultAgent: 'main' } };
const noDefault = { scopes: { agentGrants: {} } };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
}

describe('caller identity (src/core/caller.ts, used by every host)', () => {
  it('takes the agent from the flag, then the configured agent (STRATA_AGENT_ID lands there), then the host fallback', () => {
    expect(resolveCaller({ config, agentId: 'coder' })).toEqual({
      agentId: 'coder',
      scopes: ['global', 'agent:coder', 'project:strata'],
      writeScope: 'agent:coder',
      owner: false,
    });
    expect(resolveCaller({ config }).agentId).toBe('main');
    expect(resolveCaller({ config: noDefault, fallbackAgentId: 'claude-code' }).agentId).toBe('claude-code');
    expect(resolveCaller({ config: noDefault })).toEqual({ agentId: null, scopes: ['global'], writeScope: 'global', owner: false });
  });

  it('reads STRATA_AGENT_ID in the config loader, over STRATA_DEFAULT_AGENT and config.json, and rejects an id that makes no scope', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, scopes: { defaultAgent: 'from-file' } });
    expect((await loadConfig({ home, env: {} })).config.scopes.defaultAgent).toBe('from-file');
    expect((await loadConfig({ home, env: { STRATA_DEFAULT_AGENT: 'default-env' } })).config.scopes.defaultAgent).toBe('default-env');
    const loaded = await loadConfig({ home, env: { STRATA_DEFAULT_AGENT: 'default-env', STRATA_AGENT_ID: 'writer' } });
    expect(resolveCaller({ config: loaded.config }).agentId).toBe('writer');
    await expect(loadConfig({ home, env: { STRATA_AGENT_ID: "x' OR '1'='1" } })).rejects.toThrow(/STRATA_AGENT_ID/);
  });

  it('rejects an agent id that cannot form a valid scope instead of mapping it to global', () => {
    for (const bad of ["a' OR 1=1", '_hidden', 'björn', 'ops team', 'x'.repeat(200)]) {
      expect(() => resolveCaller({ config, agentId: bad }), bad).toThrow(/Invalid agent id/);
      expect(
        codeOf(() => resolveCaller({ config, agentId: bad })),
        bad,
      ).toBe('INVALID_ARGUMENT');
    }
  });

  it('no agent is the narrowest caller: global only, or only the operator-given scopes, and no conversations', () => {
    const none = resolveCaller({ config: noDefault });
    expect(conversationAgents(none)).toEqual([]);
    const project = resolveCaller({ config: noDefault, scopes: ['project:p1'] });
    expect(project).toEqual({ agentId: null, scopes: ['project:p1'], writeScope: 'project:p1', owner: false });
    expect(conversationAgents(project)).toEqual([]);
    // Owner mode only when asked for.
    expect(conversationAgents(resolveCaller({ config: noDefault, allScopes: true }))).toBeUndefined();
    expect(conversationAgents(resolveCaller({ config, agentId: 'coder' }))).toEqual(['coder']);
    expect(conversationAgents(resolveCaller({ config: noDefault, scopes: ['agent:bob'] }))).toEqual(['bob']);
  });

  it('lets a request narrow but never widen', () => {
    const caller = resolveCaller({ config, agentId: 'coder' });
    expect(requestedScopes(caller)).toBeUndefined();
    expect(requestedScopes(caller, ['project:strata'])).toEqual(['project:strata']);
    expect(allowedScope(caller, 'global')).toBe('global');
    expect(codeOf(() => requestedScopes(caller, ['global', 'agent:other']))).toBe('FORBIDDEN_SCOPE');
    expect(codeOf(() => requestedScopes(caller, "x' OR '1'='1"))).toBe('INVALID_SCOPE');
    const owner = resolveCaller({ config, agentId: 'coder', allScopes: true });
    expect(requestedScopes(owner, 'agent:other')).toEqual(['agent:other']);
  });
});

describe('bind and origin rules', () => {
  it('knows loopback hosts and checks bearer tokens exactly', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.5', '::', 'example.com', '127.0.0.1.evil.com']) expect(isLoopbackHost(h), h).toBe(false);
    expect(bearerMatches('Bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('bearer abc', 'abc')).toBe(true);
    expect(bearerMatches('Bearer abcd', 'abc')).toBe(false);
    expect(bearerMatches('Basic abc', 'abc')).toBe(false);
    expect(bearerMatches(null, 'abc')).toBe(false);
  });

  it('accepts no Origin (not a browser), the server itself and configured origins only', () => {
    const host = '127.0.0.1:7777';
    expect(originAllowed({ origin: null, host })).toBe(true);
    expect(originAllowed({ origin: 'http://127.0.0.1:7777', host })).toBe(true);
    expect(originAllowed({ origin: 'http://127.0.0.1:7778', host })).toBe(false);
    expect(originAllowed({ origin: 'https://evil.example', host })).toBe(false);
    expect(originAllowed({ origin: 'null', host })).toBe(false);
    expect(originAllowed({ origin: 'not a url', host })).toBe(false);
    expect(originAllowed({ origin: 'https://app.example', host, allowed: ['https://app.example'] })).toBe(true);
  });
});
