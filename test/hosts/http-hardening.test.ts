/**
 * Attacks on the HTTP hosts (REST API and MCP streamable HTTP) on a tokenless loopback server:
 * cross-site requests (CSRF), foreign Origins, and slow clients holding connections open.
 */
import { connect } from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller } from '../../src/core/caller.js';
import { startMcpHttp } from '../../src/hosts/mcp/transports.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { Strata } from '../../src/strata.js';
import { tempHome } from '../support/run-cli.js';
import { rawRequest } from './spawn-server.js';

const EVIL = 'https://evil.example';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};

/** Opens a socket, sends `data` and never more; resolves with what the server said once it hung up. */
function stall(url: string, data: string): Promise<{ closedAfterMs: number; response: string }> {
  const u = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port) }, () => socket.write(data));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - started, response }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept a stalled connection open for 10 s'));
    }, 10_000).unref();
  });
}

describe('HTTP hardening (real loopback servers, no token)', () => {
  let home: string;
  let strata: Strata;
  let api: ListeningServer;
  let withCors: ListeningServer;
  let mcp: ListeningServer;
  let id: string;

  beforeAll(async () => {
    home = await tempHome({ embedder: { provider: 'none' }, scopes: { defaultAgent: 'coder', agentGrants: {} } });
    strata = await Strata.open({ home });
    const caller = resolveCaller({ config: strata.config });
    const timeouts = { headersMs: 300, requestMs: 600 };
    api = await startHttpServer({ strata, caller, host: '127.0.0.1', port: 0, timeouts });
    withCors = await startHttpServer({ strata, caller, host: '127.0.0.1', port: 0, cors: { origins: ['https://app.example'] } });
    mcp = await startMcpHttp({ ops: strata.as(caller, { actor: 'mcp' }), host: '127.0.0.1', port: 0, timeouts });
    const created = await strata.remember({ text: 'Deploys happen on Tuesdays', scope: 'agent:coder', actor: 'api' });
    id = created.id;
    await strata.update({ id, text: 'Deploys happen on Tuesdays and Thursdays', actor: 'api' });
  });

  afterAll(async () => {
    await Promise.all([api?.close(), withCors?.close(), mcp?.close()]);
    await strata?.close();
    await rm(home, { recursive: true, force: true });
  });

  const textOf = async () => (await strata.get({ ids: [id] }))[0]?.text;

  it('refuses the cross-site revert: text/plain POST from a foreign Origin, and any non-JSON state change', async () => {
    const url = `${api.url}/api/v1/memories/${id}/revert`;
    const csrf = await rawRequest({ url, method: 'POST', headers: { 'content-type': 'text/plain', origin: EVIL }, body: 'x' });
    expect(csrf.status).toBe(403);
    expect(JSON.parse(csrf.body).error.code).toBe('FORBIDDEN_ORIGIN');
    // A browser that sent no Origin (or a proxy that stripped it) still cannot send a "simple" request.
    const simple = await rawRequest({ url, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(simple.status).toBe(415);
    const form = await rawRequest({
      url: `${api.url}/api/v1/memories`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=planted',
    });
    expect(form.status).toBe(415);
    const del = await rawRequest({ url: `${api.url}/api/v1/memories/${id}`, method: 'DELETE' });
    expect(del.status).toBe(415);
    expect(await textOf()).toBe('Deploys happen on Tuesdays and Thursdays');
    expect(await strata.count({ scopes: ['agent:coder'] })).toBe(1);

    // The inspector's own requests (same origin, JSON or the header) still work.
    const own = await rawRequest({ url, method: 'POST', headers: { 'content-type': 'application/json', origin: api.url }, body: '{}' });
    expect(own.status, own.body).toBe(200);
    expect(await textOf()).toBe('Deploys happen on Tuesdays');
    const marked = await rawRequest({ url, method: 'POST', headers: { 'x-strata-request': '1' } });
    expect(marked.status, marked.body).toBe(200);
    expect(await textOf()).toBe('Deploys happen on Tuesdays and Thursdays');
  });

  it('validates Origin on every REST request: foreign pages are refused, configured CORS origins allowed', async () => {
    expect((await fetch(`${api.url}/api/v1/memories`, { headers: { origin: EVIL } })).status).toBe(403);
    expect((await fetch(`${api.url}/api/v1/memories`, { headers: { origin: 'null' } })).status).toBe(403);
    expect((await fetch(`${api.url}/api/v1/memories`, { headers: { origin: api.url } })).status).toBe(200);
    expect((await fetch(`${api.url}/api/v1/memories`)).status).toBe(200);
    expect((await fetch(`${withCors.url}/api/v1/memories`, { headers: { origin: 'https://app.example' } })).status).toBe(200);
    expect((await fetch(`${withCors.url}/api/v1/memories`, { headers: { origin: EVIL } })).status).toBe(403);
  });

  it('validates Origin on the MCP streamable-HTTP endpoint, as the MCP spec requires', async () => {
    const post = (headers: Record<string, string>) =>
      rawRequest({
        url: `${mcp.url}/mcp`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(INIT),
      });
    const foreign = await post({ origin: EVIL });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toMatch(/Origin/);
    expect((await post({ origin: 'null' })).status).toBe(403);
    expect((await post({ origin: mcp.url })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it('cuts off a client that never finishes its headers or its body (slowloris)', async () => {
    for (const [server, path] of [
      [api, '/api/v1/memories'],
      [mcp, '/mcp'],
    ] as const) {
      const host = new URL(server.url).host;
      const headers = await stall(server.url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Slow: 1\r\n`);
      expect(headers.response, path).toMatch(/^HTTP\/1\.1 408/);
      const body = await stall(
        server.url,
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"text":`,
      );
      expect(body.response, path).toMatch(/^HTTP\/1\.1 408/);
    }
  });
});
