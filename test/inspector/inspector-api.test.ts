import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCaller } from '../../src/core/caller.js';
import { packageRoot } from '../../src/hosts/http/inspector-assets.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { seedHome, type Seeded } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('inspector routes and assets (real HTTP)', () => {
  let seeded: Seeded;
  let server: ListeningServer;
  let guarded: ListeningServer;
  const api = (path: string, init?: RequestInit) => fetch(`${server.url}/api/v1${path}`, init);

  beforeAll(async () => {
    seeded = await seedHome();
    const caller = resolveCaller({ config: seeded.strata.config, agentId: 'coder' });
    server = await startHttpServer({ strata: seeded.strata, caller, host: '127.0.0.1', port: 0 });
    guarded = await startHttpServer({ strata: seeded.strata, caller, host: '127.0.0.1', port: 0, token: 'sekret' });
  });

  afterAll(async () => {
    await server?.close();
    await guarded?.close();
    await seeded?.strata.close();
    if (seeded) await rm(seeded.home, { recursive: true, force: true });
  });

  it('returns a memory’s source messages from the L0 log, matched by session and agent', async () => {
    const res = await api(`/memories/${seeded.ids.distilled}/provenance`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.source).toEqual({ kind: 'distill', agentId: 'coder', sessionKey: 'agent:coder:main', messageIds: ['m1', 'm2'] });
    expect(body.messages.map((m: Json) => [m.id, m.role, m.content])).toEqual([
      ['m1', 'user', 'We always deploy the API on Tuesdays, never on Fridays.'],
      ['m2', 'assistant', 'Noted: API deploys happen on Tuesdays only.'],
    ]);
    expect(body.missing).toEqual([]);

    const manual = (await (await api(`/memories/${seeded.ids.edited}/provenance`)).json()) as Json;
    expect(manual).toMatchObject({ source: { kind: 'manual', messageIds: [] }, messages: [], missing: [] });
    // Another agent's memory is invisible, and so is its provenance; a malformed id is a 400.
    expect((await api(`/memories/${seeded.ids.other}/provenance`)).status).toBe(404);
    const bad = await api(`/memories/${encodeURIComponent('../x')}/provenance`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error.code).toBe('INVALID_ARGUMENT');
  });

  it('withholds source messages of an agent the caller may not read', async () => {
    const own = await seeded.strata.remember({
      text: 'Learned from the ops agent: pager rotation is weekly',
      scope: 'global',
      source: { kind: 'distill', agentId: 'ops', sessionKey: 'agent:ops:main', messageIds: ['m1'] },
    });
    const body = (await (await api(`/memories/${own.id}/provenance`)).json()) as Json;
    expect(body.messages).toEqual([]);
    expect(body.missing).toEqual(['m1']);
    expect(body.withheld).toMatch(/agent ops/);
  });

  it('reads persona and scenes of the caller’s agent or another agent it holds, never a foreign one', async () => {
    expect(((await (await api('/persona')).json()) as Json).text).toContain('Coder persona');
    expect(await (await api('/persona?agent=reviewer')).json()).toEqual({
      agent: 'reviewer',
      text: '# Reviewer persona\n\nReads every diff twice.\n',
    });
    const foreign = await api('/persona?agent=other');
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as Json).error.code).toBe('FORBIDDEN_SCOPE');
    expect((await api(`/persona?agent=${encodeURIComponent('../coder')}`)).status).toBe(400);
    expect((await api('/persona?agent=coder&extra=1')).status).toBe(400);
    expect(await (await api('/scenes?agent=reviewer')).json()).toEqual({ agent: 'reviewer', scenes: [] });

    const scenes = (await (await api('/scenes')).json()) as Json;
    expect(scenes.scenes.map((s: Json) => s.name).sort()).toEqual(['code-review', 'deploys']);
    const scene = (await (await api('/scenes/deploys?agent=coder')).json()) as Json;
    expect(scene).toMatchObject({
      agent: 'coder',
      name: 'deploys',
      summary: 'How releases go out',
      heat: 3,
      updated: '2026-11-20T00:00:00.000Z',
    });
    expect(scene.body).toBe('## Deploys\n\nTuesdays only; the checklist is in docs/RELEASING.md.\n');
  });

  it('serves the page and its modules without a token, with a CSP that allows only the import map inline', async () => {
    const page = await fetch(`${guarded.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(await page.text()).toContain('<script type="importmap">');
    for (const path of ['/inspector/app.js', '/inspector/style.css', '/vendor/preact.mjs', '/vendor/preact-hooks.mjs', '/vendor/htm.mjs']) {
      const res = await fetch(`${guarded.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await fetch(`${guarded.url}/inspector/app.js`)).headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/inspector/..%2Fpackage.json', '/inspector/index.html', '/vendor/zod.mjs', '/inspector/nope.js']) {
      expect((await fetch(`${guarded.url}${path}`)).status, path).toBe(404);
    }
    // The data still needs the token.
    expect((await fetch(`${guarded.url}/api/v1/whoami`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/api/v1/whoami`, { headers: { authorization: 'Bearer sekret' } })).status).toBe(200);
  });

  it('finds the package root (and so inspector/) from src/ and from a dist/-like folder', async () => {
    expect(packageRoot()).toBe(REPO_ROOT);
    expect(packageRoot(join(REPO_ROOT, 'dist', 'hosts', 'http', 'inspector-assets.js'))).toBe(REPO_ROOT);
    // A package.json of another name (a consumer's project) is walked past.
    const outer = await mkdtemp(join(tmpdir(), 'strata-root-'));
    try {
      await writeFile(join(outer, 'package.json'), JSON.stringify({ name: 'strata-memory' }));
      await mkdir(join(outer, 'app', 'lib'), { recursive: true });
      await writeFile(join(outer, 'app', 'package.json'), JSON.stringify({ name: 'consumer' }));
      expect(packageRoot(join(outer, 'app', 'lib', 'x.js'))).toBe(outer);
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });
});

describe('inspector assets outside a full package', () => {
  it('answers / with an actionable message when the inspector folder is missing', async () => {
    const { Hono } = await import('hono');
    const { inspectorAssets, registerInspectorAssets } = await import('../../src/hosts/http/inspector-assets.js');
    const root = await mkdtemp(join(tmpdir(), 'strata-noassets-'));
    try {
      const app = new Hono();
      registerInspectorAssets(app, inspectorAssets({ root }));
      const res = await app.fetch(new Request('http://localhost/'));
      expect(res.status).toBe(500);
      expect(await res.text()).toContain(`missing from ${join(root, 'inspector')}`);
      expect((await app.fetch(new Request('http://localhost/inspector/app.js'))).status).toBe(404);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
