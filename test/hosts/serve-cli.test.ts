import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';
import { spawnServer } from './spawn-server.js';

describe('strata serve (real child process)', () => {
  it('serves the API on loopback as the configured agent and exits cleanly on SIGTERM', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, scopes: { defaultAgent: 'ops', agentGrants: {} } });
    const server = await spawnServer(['--home', home, 'serve', '--port', '0'], { STRATA_HTTP_TOKEN: '', STRATA_AGENT_ID: '' });
    try {
      expect(new URL(server.url).hostname).toBe('127.0.0.1');
      const who = await (await fetch(`${server.url}/api/v1/whoami`)).json();
      expect(who).toEqual({ agent: 'ops', scopes: ['global', 'agent:ops'], writeScope: 'agent:ops', owner: false });
      const created = await fetch(`${server.url}/api/v1/memories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'On-call rotates weekly' }),
      });
      expect(created.status).toBe(201);
      // CORS is off unless configured.
      const pre = await fetch(`${server.url}/api/v1/memories`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a non-loopback bind without STRATA_HTTP_TOKEN', async () => {
    const home = await tempHome();
    const out = await runCli(['--home', home, 'serve', '--host', '0.0.0.0', '--port', '0'], { env: { STRATA_HTTP_TOKEN: '' } });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0 without a bearer token/);
  });
});
