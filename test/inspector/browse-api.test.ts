/**
 * The operations behind the inspector's new views, over HTTP as a non-owner caller: sessions, a
 * session's turns, the overview, import and bulk forget stay within the caller's scopes and the
 * conversations of agents it may read; bad input gets a typed error and writes nothing.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller } from '../../src/core/caller.js';
import { createHttpHandler } from '../../src/hosts/http/api.js';
import { Strata } from '../../src/strata.js';
import { seedOwnerHome, type OwnerSeed } from './owner-seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('inspector operations for a non-owner caller', () => {
  let seed: OwnerSeed;
  let strata: Strata;
  let coder: (path: string, init?: RequestInit) => Promise<{ status: number; body: Json }>;
  let nobody: (path: string, init?: RequestInit) => Promise<{ status: number; body: Json }>;
  const client = (handler: (r: Request) => Promise<Response>) => async (path: string, init?: RequestInit) => {
    const res = await handler(new Request(`http://127.0.0.1/api/v1${path}`, init));
    return { status: res.status, body: (await res.json()) as Json };
  };
  const post = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    seed = await seedOwnerHome();
    strata = await Strata.open({ home: seed.home });
    coder = client(createHttpHandler({ strata, caller: resolveCaller({ config: strata.config, agentId: 'coder' }) }));
    nobody = client(createHttpHandler({ strata, caller: resolveCaller({ config: strata.config, agentId: null }) }));
  }, 60_000);

  afterAll(async () => {
    await strata?.close();
    if (seed) await rm(seed.home, { recursive: true, force: true });
  });

  it('lists only the sessions of agents the caller may read, and none without an agent', async () => {
    const mine = await coder('/sessions');
    expect(mine.status).toBe(200);
    expect(mine.body.sessions.map((s: Json) => s.sessionKey)).toEqual(['agent:coder:main']);
    expect(mine.body.total).toBe(1);
    expect((await coder('/sessions?agent=reviewer')).body.sessions).toEqual([]);
    const none = await nobody('/sessions');
    expect(none.body.sessions).toEqual([]);
    expect(none.body.note).toMatch(/no agent/);
    expect((await coder('/sessions?limit=0')).status).toBe(400);
  });

  it('reads a session with the memories citing each turn, and answers another agent’s session as missing', async () => {
    const s = await coder('/session?agentId=coder&sessionKey=agent:coder:main');
    expect(s.status).toBe(200);
    expect(s.body.turns.map((t: Json) => t.id)).toEqual(['c1', 'c2', 'c3']);
    expect(Object.keys(s.body.citedBy).sort()).toEqual(['c1', 'c2']);
    expect(s.body.citedBy.c1[0]).toMatchObject({ id: seed.distilled, text: 'Merges into main are squash merges', scope: 'agent:coder' });
    const paged = await coder('/session?agentId=coder&sessionKey=agent:coder:main&limit=1&offset=2');
    expect(paged.body).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(paged.body.turns.map((t: Json) => t.id)).toEqual(['c3']);
    const foreign = await coder('/session?agentId=reviewer&sessionKey=agent:reviewer:main');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await coder('/session?agentId=coder')).status).toBe(400);
  });

  it('counts the overview and lists by source agent within the caller’s scopes only', async () => {
    const o = (await coder('/overview')).body;
    expect(o.byScope).toEqual({ global: seed.byScope.global, 'agent:coder': seed.byScope['agent:coder'] });
    expect(o.memories).toBe(seed.byScope.global! + seed.byScope['agent:coder']!);
    expect(Object.keys(o.byAgent).sort()).toEqual(['(none)', 'coder']);
    expect((await coder('/overview?scope=agent:ops')).status).toBe(403);
    // ops' memories live in scopes coder does not hold.
    expect((await coder('/memories?agent=ops')).body).toMatchObject({ memories: [], total: 0 });
    const byCoder = (await coder('/memories?agent=coder&limit=2')).body;
    expect(byCoder.total).toBe(seed.byAgent.coder);
    expect(byCoder.memories).toHaveLength(2);
    expect(byCoder.memories.every((m: Json) => m.source.agentId === 'coder')).toBe(true);
  });

  it('imports only into the caller’s scopes, previews a dry run and writes nothing on a refusal', async () => {
    const total = async () => (await coder('/memories')).body.total as number;
    const before = await total();
    const foreign = await coder('/import', post({ jsonl: JSON.stringify({ text: 'Sneaky', scope: 'agent:reviewer' }) }));
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN_SCOPE');
    expect(foreign.body.error.message).toContain('line 1');
    const jsonl = [
      JSON.stringify({ text: 'Coder imported one', scope: 'agent:coder' }),
      'not json',
      JSON.stringify({ text: 'Coder imported two' }),
    ].join('\n');
    const dry = await coder('/import', post({ jsonl, dryRun: true, scope: 'agent:coder' }));
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, lines: 3, imported: 2, invalid: [{ line: 2 }] });
    expect(dry.body.preview.map((p: Json) => [p.line, p.scope])).toEqual([
      [1, 'agent:coder'],
      [3, 'agent:coder'],
    ]);
    expect(await total()).toBe(before);
    expect((await coder('/import', post({ jsonl, scope: 'agent:coder' }))).body.imported).toBe(2);
    expect(await total()).toBe(before + 2);
    expect((await coder('/import', post({ jsonl: '' }))).status).toBe(400);
    expect((await coder('/import', post({ jsonl, extra: 1 }))).status).toBe(400);
  });

  it('forgets in bulk only what is the caller’s', async () => {
    const ids = (await coder('/memories?scope=global')).body.memories.map((m: Json) => m.id).slice(0, 2);
    const other = (await strata.list({ scopes: ['agent:reviewer'] }))[0]!.id;
    const out = await coder('/memories/forget', post({ ids: [...ids, other] }));
    expect(out.status).toBe(200);
    expect(out.body.deleted).toBe(2);
    expect(out.body.ids.sort()).toEqual([...ids].sort());
    expect(await strata.get({ ids: [other], scopes: ['agent:reviewer'] })).toHaveLength(1);
    expect((await coder('/memories/forget', post({ ids: [other] }))).status).toBe(404);
    expect((await coder('/memories/forget', post({ query: 'x' }))).status).toBe(400);
  });

  it('says whether an LLM is configured, by name only', async () => {
    expect((await coder('/stats')).body.llm).toEqual({ provider: 'none', configured: false });
    const withLlm = await Strata.open({
      home: seed.home,
      overrides: { llm: { provider: 'openai', model: 'qwen2.5:7b', baseURL: 'http://127.0.0.1:9/v1' } },
    }).catch((e: unknown) => e as Error);
    if (withLlm instanceof Error) throw withLlm;
    try {
      const stats = await client(
        createHttpHandler({ strata: withLlm, caller: resolveCaller({ config: withLlm.config, agentId: 'coder' }) }),
      )('/stats');
      expect(stats.body.llm).toEqual({ provider: 'openai', model: 'qwen2.5:7b', configured: true });
      expect(JSON.stringify(stats.body)).not.toContain('127.0.0.1:9');
    } finally {
      await withLlm.close();
    }
  });
});
