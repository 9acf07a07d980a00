import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../support/run-cli.js';
import { Strata } from '../../src/strata.js';
import { resolveCaller } from '../../src/core/caller.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Two agents with disjoint private scopes: each one's /stats must count only what it can read. */
describe('HTTP /stats respects the caller scopes', () => {
  let home: string;
  let strata: Strata;
  let alice: ListeningServer;
  let bob: ListeningServer;
  const stats = async (server: ListeningServer): Promise<Json> => (await (await fetch(`${server.url}/api/v1/stats`)).json()) as Json;

  beforeAll(async () => {
    home = await tempHome({ embedder: { provider: 'none' }, scopes: { agentGrants: { alice: ['project:x'] } } });
    strata = await Strata.open({ home });
    await strata.remember({ text: 'Global: the office closes at six', scope: 'global', category: 'fact' });
    await strata.remember({ text: 'Alice prefers tabs over spaces', scope: 'agent:alice', category: 'preference' });
    await strata.remember({ text: 'Project x ships on Fridays', scope: 'project:x', category: 'rule' });
    // Bob's memories: categories alice has none of, so any leak shows up as a key or a count.
    await strata.remember({ text: 'Bob decided to migrate to Postgres', scope: 'agent:bob', category: 'decision' });
    await strata.remember({ text: 'Bob learned that the cache must be warmed', scope: 'agent:bob', category: 'lesson' });
    const bobPref = await strata.remember({ text: 'Bob prefers spaces', scope: 'agent:bob', category: 'preference' });
    await strata.update({ id: bobPref.id, text: 'Bob prefers two spaces', scopes: ['agent:bob'] });
    // An expired memory is history, not a current memory: it must not inflate any scoped count.
    const old = await strata.remember({ text: 'Bob used to work at Initech', scope: 'agent:bob', category: 'entity' });
    await strata.update({ id: old.id, validTo: new Date().toISOString(), scopes: ['agent:bob'] });
    alice = await startHttpServer({
      strata,
      caller: resolveCaller({ config: strata.config, agentId: 'alice' }),
      host: '127.0.0.1',
      port: 0,
    });
    bob = await startHttpServer({ strata, caller: resolveCaller({ config: strata.config, agentId: 'bob' }), host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await strata?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('counts by scope and by category only within the caller scopes', async () => {
    const a = await stats(alice);
    expect(a).toMatchObject({ agent: 'alice', memories: 3 });
    expect(a.byScope).toEqual({ global: 1, 'agent:alice': 1, 'project:x': 1 });
    expect(a.byCategory).toEqual({ fact: 1, preference: 1, rule: 1 });
    expect(JSON.stringify(a)).not.toMatch(/agent:bob|decision|lesson/);

    const b = await stats(bob);
    expect(b).toMatchObject({ agent: 'bob', memories: 4 });
    expect(b.byScope).toEqual({ global: 1, 'agent:bob': 3 });
    expect(b.byCategory).toEqual({ fact: 1, decision: 1, lesson: 1, preference: 1 });
    expect(JSON.stringify(b)).not.toMatch(/agent:alice|project:x|rule|entity/);
  });

  it('the engine scoped stats agree with a scoped count; the unscoped admin view still sees everything', async () => {
    const scoped = await strata.stats({ scopes: ['agent:bob'] });
    expect(scoped.current).toBe(await strata.count({ scopes: ['agent:bob'] }));
    const all = await strata.stats();
    expect(all.byScope['agent:bob']).toBe(4); // 3 current + 1 expired
    expect(Object.keys(all.byCategory).sort()).toEqual(['decision', 'entity', 'fact', 'lesson', 'preference', 'rule']);
  });
});
