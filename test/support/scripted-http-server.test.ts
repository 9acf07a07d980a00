import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted-http-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-Test': 'yes' }, body: JSON.stringify(body), ...init });

describe('startScriptedServer', () => {
  it('answers a queue in order, records requests, and reports an exhausted queue', async () => {
    server = await startScriptedServer({
      routes: { 'POST /v1/x': [{ json: { n: 1 } }, { status: 429, headers: { 'retry-after': '2' }, json: { error: 'slow down' } }] },
    });
    const first = await post(`${server.url}/v1/x?a=1`, { hello: 'world' });
    expect(await first.json()).toEqual({ n: 1 });
    const second = await post(`${server.url}/v1/x`, {});
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2');
    const third = await post(`${server.url}/v1/x`, {});
    expect(third.status).toBe(500);
    expect(await third.text()).toContain('no reply left');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/x',
      query: { a: '1' },
      body: { hello: 'world' },
      routeCallIndex: 0,
    });
    expect(server.requests[0]?.headers['x-test']).toBe('yes');
    expect(server.requests[2]?.routeCallIndex).toBe(2);
  });

  it('answers from a function, repeats a single reply, and 404s unknown routes', async () => {
    server = await startScriptedServer({
      routes: {
        '/echo': (req) => ({ json: { got: req.body, call: req.routeCallIndex } }),
        '/same': { body: 'not json {' },
      },
    });
    expect(await (await post(`${server.url}/echo`, { a: 1 })).json()).toEqual({ got: { a: 1 }, call: 0 });
    expect(await (await post(`${server.url}/same`, {})).text()).toBe('not json {');
    expect(await (await post(`${server.url}/same`, {})).text()).toBe('not json {');
    expect((await post(`${server.url}/nope`, {})).status).toBe(404);
    expect(server.requestsTo('/same')).toHaveLength(2);
  });

  it('hangs until the client aborts, and counts the abandoned request', async () => {
    server = await startScriptedServer({ routes: { '/hang': { hang: true } } });
    const controller = new AbortController();
    const pending = post(`${server.url}/hang`, {}, { signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => server?.requests.length).toBe(1);
    expect(server.abandoned).toBe(0);
    controller.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
    await expect.poll(() => server?.abandoned).toBe(1);
  });

  it('drops the connection on destroy and streams chunks', async () => {
    server = await startScriptedServer({
      routes: {
        '/drop': { destroy: true },
        '/sse': { headers: { 'content-type': 'text/event-stream' }, chunks: ['data: 1\n\n', 'data: 2\n\n'], chunkDelayMs: 5 },
      },
    });
    await expect(post(`${server.url}/drop`, {})).rejects.toThrow(/fetch failed/);
    expect(await (await post(`${server.url}/sse`, {})).text()).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('closes while a request hangs', async () => {
    server = await startScriptedServer({ routes: { '/hang': { hang: true } } });
    const pending = post(`${server.url}/hang`, {}).catch((e: unknown) => e);
    await expect.poll(() => server?.requests.length).toBe(1);
    await server.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
  });
});
