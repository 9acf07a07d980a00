import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runCli, tempHome } from '../support/run-cli.js';
import { call, newClient, textOf } from './mcp-helpers.js';
import { rawRequest, spawnServer, type SpawnedServer } from './spawn-server.js';

describe('strata mcp --http (streamable HTTP, real child process)', () => {
  let home: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    home = await tempHome();
    // Identity from the environment this time.
    server = await spawnServer(['--home', home, 'mcp', '--http', '127.0.0.1:0'], { STRATA_AGENT_ID: 'writer', STRATA_HTTP_TOKEN: '' });
  });

  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('serves the tools to the SDK client, scoped to the environment agent', async () => {
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const stored = await call(client, 'memory_store', { text: 'Release notes are drafted on Fridays', category: 'rule' });
    expect(stored.isError, textOf(stored)).toBeFalsy();
    expect(stored.json()).toMatchObject({ action: 'created', memory: { scope: 'agent:writer' } });
    const recall = await call(client, 'memory_recall', { query: 'when are release notes drafted' });
    expect((recall.json() as { results: Array<{ text: string }> }).results[0]?.text).toBe('Release notes are drafted on Fridays');
    const bad = await call(client, 'memory_recall', { query: 'x', scope: 'agent:someone-else' });
    expect(bad.isError).toBe(true);
    const invalid = await call(client, 'memory_list', { limit: 'all' });
    expect(invalid.isError).toBe(true);
    await client.close();
  });

  it('answers GET with 405 and rejects foreign Host headers (DNS rebinding)', async () => {
    const get = await fetch(`${server.url}/mcp`);
    expect(get.status).toBe(405);
    const port = new URL(server.url).port;
    const res = await rawRequest({
      url: `${server.url}/mcp`,
      method: 'POST',
      headers: { host: `evil.example:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(403);
  });

  it('refuses a non-loopback bind without a token', async () => {
    const out = await runCli(['--home', home, 'mcp', '--http', '0.0.0.0:0'], { env: { STRATA_HTTP_TOKEN: '' } });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/STRATA_HTTP_TOKEN/);
  });

  it('requires the bearer token when one is set', async () => {
    const guarded = await spawnServer(['--home', home, 'mcp', '--http', '127.0.0.1:0'], { STRATA_HTTP_TOKEN: 's3cret' });
    try {
      const denied = newClient();
      await expect(denied.connect(new StreamableHTTPClientTransport(new URL(`${guarded.url}/mcp`)))).rejects.toThrow();
      const client = newClient();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${guarded.url}/mcp`), { requestInit: { headers: { authorization: 'Bearer s3cret' } } }),
      );
      expect((await client.listTools()).tools.length).toBe(9);
      await client.close();
    } finally {
      await guarded.stop();
    }
  });
});
