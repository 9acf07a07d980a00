import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempHome } from '../support/run-cli.js';
import { Strata } from '../../src/strata.js';
import { resolveCaller } from '../../src/core/caller.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { rawRequest } from './spawn-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('HTTP API (real HTTP on 127.0.0.1)', () => {
  let strata: Strata;
  let server: ListeningServer;
  let guarded: ListeningServer;
  let otherId: string;
  let home: string;
  const api = (path: string) => `${server.url}/api/v1${path}`;
  const post = (path: string, body: unknown, method = 'POST') =>
    fetch(api(path), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // A bodyless state-changing request names itself with the custom header (CSRF protection).
  const del = (path: string) => fetch(api(path), { method: 'DELETE', headers: { 'x-strata-request': '1' } });

  beforeAll(async () => {
    home = await tempHome({ embedder: { provider: 'none' }, scopes: { agentGrants: { coder: ['project:strata'] } } });
    strata = await Strata.open({ home });
    otherId = (await strata.remember({ text: 'Other agent: the staging database password rotates monthly', scope: 'agent:other' })).id;
    const caller = resolveCaller({ config: strata.config, agentId: 'coder' });
    server = await startHttpServer({ strata, caller, host: '127.0.0.1', port: 0 });
    guarded = await startHttpServer({ strata, caller, host: '127.0.0.1', port: 0, token: 'tok-123' });
  });

  afterAll(async () => {
    await server?.close();
    await guarded?.close();
    await strata?.close();
  });

  it('creates, reads, lists with filters and pages, updates and deletes a memory', async () => {
    const created = await post('/memories', { text: 'The team deploys on Tuesdays', category: 'rule', tags: ['ops'] });
    expect(created.status).toBe(201);
    const { id, record } = (await created.json()) as Json;
    expect(record.scope).toBe('agent:coder');
    expect((await post('/memories', { text: 'Prefers Vim keybindings', category: 'preference', scope: 'project:strata' })).status).toBe(
      201,
    );
    expect((await post('/memories', { text: 'Prefers Vim keybindings', category: 'preference', scope: 'project:strata' })).status).toBe(
      200,
    );

    expect(((await (await fetch(api(`/memories/${id}`))).json()) as Json).text).toBe('The team deploys on Tuesdays');
    const byCategory = (await (await fetch(api('/memories?category=rule'))).json()) as Json;
    expect(byCategory.memories.map((m: Json) => m.id)).toEqual([id]);
    const byScope = (await (await fetch(api('/memories?scope=project:strata'))).json()) as Json;
    expect(byScope.memories.map((m: Json) => m.text)).toEqual(['Prefers Vim keybindings']);
    const page1 = (await (await fetch(api('/memories?limit=1&offset=0'))).json()) as Json;
    const page2 = (await (await fetch(api('/memories?limit=1&offset=1'))).json()) as Json;
    expect(page1.total).toBe(2);
    expect(page1.memories[0].id).not.toBe(page2.memories[0].id);

    const patched = await post(`/memories/${id}`, { importance: 0.95, text: 'The team deploys on Tuesdays and Thursdays' }, 'PATCH');
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Json).importance).toBe(0.95);

    expect((await del(`/memories/${id}`)).status).toBe(200);
    const gone = await fetch(api(`/memories/${id}`));
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as Json).error.code).toBe('NOT_FOUND');
  });

  it('recalls with explain, reports scoped stats and exports JSONL of the caller’s scopes only', async () => {
    const recall = await post('/recall', { query: 'vim keybindings', explain: true });
    expect(recall.status).toBe(200);
    const body = (await recall.json()) as Json;
    expect(body.results[0].record.text).toBe('Prefers Vim keybindings');
    expect(body.explain.candidates.length).toBeGreaterThan(0);

    const stats = (await (await fetch(api('/stats'))).json()) as Json;
    expect(stats).toMatchObject({ agent: 'coder', memories: 1 });
    expect(JSON.stringify(stats)).not.toContain('agent:other');

    const usage = await fetch(api('/usage'));
    expect(await usage.json()).toMatchObject({ calls: 0, costUsd: 0 });
    expect((await fetch(api('/usage?since=yesterday'))).status).toBe(400);

    const exported = await fetch(api('/export'));
    expect(exported.headers.get('content-type')).toMatch(/ndjson/);
    const lines = (await exported.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    expect(lines.map((l) => l.text)).toEqual(['Prefers Vim keybindings']);
  });

  it('rejects a missing or wrong token with 401 and changes nothing', async () => {
    const url = `${guarded.url}/api/v1/memories`;
    const before = await strata.count({ scopes: ['agent:coder', 'global', 'project:strata'] });
    const missing = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'no token' }),
    });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await missing.json()) as Json).error.code).toBe('UNAUTHORIZED');
    const wrong = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok-124' },
      body: JSON.stringify({ text: 'wrong token' }),
    });
    expect(wrong.status).toBe(401);
    expect(await strata.count({ scopes: ['agent:coder', 'global', 'project:strata'] })).toBe(before);
    expect((await fetch(url, { headers: { authorization: 'Bearer tok-123' } })).status).toBe(200);
  });

  it('rejects oversized, malformed, mistyped and invalid bodies with the right status', async () => {
    const before = await strata.count({ scopes: ['agent:coder'] });
    const huge = await post('/memories', { text: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as Json).error.code).toBe('PAYLOAD_TOO_LARGE');
    // Chunked upload without Content-Length is cut off too.
    const chunked = await rawRequest({
      url: api('/memories'),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ text: 'y'.repeat(1_100_000) }),
    });
    expect(chunked.status).toBe(413);

    const malformed = await fetch(api('/memories'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text": "unterminated',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Json).error.code).toBe('MALFORMED_JSON');
    const text = await fetch(api('/memories'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    for (const body of [
      {},
      { text: '' },
      { text: 'ok', importance: 2 },
      { text: 'ok', agent: 'other' },
      { text: 'ok', category: 'gossip' },
    ]) {
      const res = await post('/memories', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as Json).error.code).toBe('INVALID_ARGUMENT');
    }
    expect((await fetch(api('/memories?limit=abc'))).status).toBe(400);
    expect((await fetch(api('/nope'))).status).toBe(404);
    expect(await strata.count({ scopes: ['agent:coder'] })).toBe(before);
  });

  it('rejects hostile and widening scope values and leaves other agents’ memories untouched', async () => {
    const hostile = encodeURIComponent("x' OR '1'='1");
    const list = await fetch(api(`/memories?scope=${hostile}`));
    expect(list.status).toBe(400);
    expect(((await list.json()) as Json).error.code).toBe('INVALID_SCOPE');
    expect((await post('/memories', { text: 'inject', scope: "global' OR 1=1 --" })).status).toBe(400);
    expect((await post('/recall', { query: 'password', scopes: ["x' OR '1'='1"] })).status).toBe(400);

    const widenList = await fetch(api('/memories?scope=agent:other'));
    expect(widenList.status).toBe(403);
    expect(((await widenList.json()) as Json).error.code).toBe('FORBIDDEN_SCOPE');
    expect((await post('/memories', { text: 'planted', scope: 'agent:other' })).status).toBe(403);
    expect((await post('/recall', { query: 'staging database password', scopes: ['agent:other'] })).status).toBe(403);
    expect((await fetch(api('/export?scope=agent:other'))).status).toBe(403);

    expect((await fetch(api(`/memories/${otherId}`))).status).toBe(404);
    expect((await post(`/memories/${otherId}`, { text: 'hijacked' }, 'PATCH')).status).toBe(404);
    expect((await del(`/memories/${otherId}`)).status).toBe(404);
    expect((await fetch(api(`/memories/${encodeURIComponent("1' OR '1'='1")}`))).status).toBe(400);
    const recall = (await (await post('/recall', { query: 'staging database password rotates' })).json()) as Json;
    expect(recall.results).toHaveLength(0);

    const [other] = await strata.get({ ids: [otherId] });
    expect(other?.text).toBe('Other agent: the staging database password rotates monthly');
    expect(await strata.count({ scopes: ['agent:other'] })).toBe(1);
  });

  it('searches only the server agent’s conversations', async () => {
    const base = {
      sessionId: 's1',
      host: 'jsonl' as const,
      role: 'user' as const,
      timestamp: 1_771_996_735_000,
      recordedAt: new Date().toISOString(),
    };
    await strata.appendConversation({
      records: [
        { ...base, sessionKey: 'agent:coder:main', agentId: 'coder', id: 'c1', content: 'Rotate the signing keys before the audit' },
        { ...base, sessionKey: 'agent:other:main', agentId: 'other', id: 'o1', content: 'Rotate the signing keys of the other team' },
      ],
    });
    const res = await post('/conversations/search', { query: 'rotate signing keys' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).results.map((r: Json) => r.record.agentId)).toEqual(['coder']);
    expect((await post('/conversations/search', { query: 'keys', agentId: 'other' })).status).toBe(400);
  });

  it('sends CORS headers only for configured origins', async () => {
    const withCors = await startHttpServer({ strata, host: '127.0.0.1', port: 0, cors: { origins: ['https://app.example'] } });
    try {
      const preflight = (origin: string) =>
        fetch(`${withCors.url}/api/v1/recall`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
      expect((await preflight('https://app.example')).headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
      expect(
        (await fetch(api('/stats'), { headers: { origin: 'https://app.example' } })).headers.get('access-control-allow-origin'),
      ).toBeNull();
    } finally {
      await withCors.close();
    }
  });

  it('serves persona, scenes and history only where they exist and only within the caller’s scopes', async () => {
    for (const path of ['/persona', `/memories/${otherId}/history`]) {
      expect((await fetch(api(path))).status, path).toBe(404);
    }
    expect(await (await fetch(api('/scenes'))).json()).toEqual({ agent: 'coder', scenes: [] });
    await mkdir(join(home, 'persona'), { recursive: true });
    await writeFile(join(home, 'persona', 'coder.md'), 'Coder persona');
    await writeFile(join(home, 'persona', 'other.md'), 'Other persona');
    await mkdir(join(home, 'scenes', 'coder'), { recursive: true });
    await writeFile(join(home, 'scenes', 'coder', 'launch.md'), 'Launch scene');
    expect(await (await fetch(api('/persona'))).json()).toEqual({ agent: 'coder', text: 'Coder persona' });
    expect(await (await fetch(api('/scenes'))).json()).toMatchObject({
      agent: 'coder',
      scenes: [{ name: 'launch', summary: 'Launch scene' }],
    });
    expect(((await (await fetch(api('/scenes/launch'))).json()) as Json).text).toBe('Launch scene');
    expect((await fetch(api('/scenes/..%2F..%2Fconfig.json'))).status).toBe(404);

    const created = (await (await post('/memories', { text: 'History subject, first wording' })).json()) as Json;
    expect((await post(`/memories/${created.id}`, { text: 'History subject, second wording' }, 'PATCH')).status).toBe(200);
    const history = (await (await fetch(api(`/memories/${created.id}/history`))).json()) as Json;
    expect(history.entries.map((e: Json) => [e.action, e.actor])).toEqual([
      ['create', 'api'],
      ['update', 'api'],
    ]);
    const reverted = await post(`/memories/${created.id}/revert`, {});
    expect(reverted.status).toBe(200);
    expect(((await (await fetch(api(`/memories/${created.id}`))).json()) as Json).text).toBe('History subject, first wording');

    // The other agent's memory has history too, but not for this caller.
    expect((await strata.history({ id: otherId })).length).toBeGreaterThan(0);
    expect((await fetch(api(`/memories/${otherId}/history`))).status).toBe(404);
    expect((await post(`/memories/${otherId}/revert`, {})).status).toBe(404);
    expect(await strata.count({ scopes: ['agent:other'] })).toBe(1);
  });
});
