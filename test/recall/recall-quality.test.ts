import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MEMORIES, DEMO_QUERIES } from '../../src/cli/commands/demo.js';
import { Strata } from '../../src/strata.js';

// Real store, real local embedder, default recall settings: what a user of the demo or a host gets.
describe('recall quality on the demo and the pet memories (local embedder, default settings)', () => {
  let home: string;
  let strata: Strata;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'strata-quality-'));
    strata = await Strata.open({ home, overrides: { embedder: { provider: 'local' } } as never });
    await strata.rememberMany({ items: DEMO_MEMORIES });
    await strata.rememberMany({
      items: [
        { scope: 'global', category: 'fact', text: 'My dog is called Rex; he is a four-year-old beagle.' },
        { scope: 'global', category: 'fact', text: 'My cat is called Whiskers and she sleeps on the sofa.' },
        { scope: 'global', category: 'fact', text: 'We moved to a new city, Porto, last spring.' },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await strata?.close();
    await rm(home, { recursive: true, force: true });
  });

  it("answers the demo's first question with the billing decision, not the migration rule that shares one word", async () => {
    const first = DEMO_QUERIES[0]!;
    const out = await strata.recall({ query: first.query, scopes: first.scopes, limit: 3, explain: true });
    expect(out.results[0]!.record.text).toMatch(/PostgreSQL 16 for the billing service/);
    const migration = out.results.find((r) => /migrations/.test(r.record.text));
    if (migration) expect(migration.score).toBeLessThan(out.results[0]!.score);
  });

  it('finds the dog for "What\'s my dog called?", well above the cat', async () => {
    const out = await strata.recall({ query: "What's my dog called?", scopes: ['global'], limit: 5 });
    expect(out.results[0]!.record.text).toMatch(/dog is called Rex/);
    const cat = out.results.find((r) => /Whiskers/.test(r.record.text));
    expect(cat?.score ?? 0).toBeLessThan(out.results[0]!.score * 0.8);
  });

  it('gives the same scores to the same query twice in a row, all within [0, 1]', { timeout: 30_000 }, async () => {
    const query = 'why do the integration tests time out';
    const a = await strata.recall({ query, scopes: ['global', 'agent:coder'], limit: 5 });
    // The access tracker writes the first recall's hits after 2 s: the second one sees them counted.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const b = await strata.recall({ query, scopes: ['global', 'agent:coder'], limit: 5 });
    expect(b.results.map((r) => [r.record.id, r.score])).toEqual(a.results.map((r) => [r.record.id, r.score]));
    for (const r of a.results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
  });
});
