import { mkdir, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { l0Of } from '../capture/helpers.js';
import { buildContext, layerPaths, NAV_CLOSE, NAV_OPEN, serializeScene, syncSceneIndex } from '../../src/core/layers/index.js';
import { estimateTokens } from '../../src/core/recall/index.js';
import { runSummaries } from '../../src/core/summaries/index.js';
import { session, summaryModel, writeL0 } from '../summaries/helpers.js';
import { layerEnv, type LayerEnv } from './helpers.js';
import { join } from 'node:path';

let env: LayerEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function seed(e: LayerEnv): Promise<void> {
  const paths = layerPaths({ home: e.home, agentId: 'main' });
  await mkdir(paths.scenesDir, { recursive: true });
  await mkdir(join(e.home, 'persona'), { recursive: true });
  const T = '2026-01-01T00:00:00.000Z';
  for (let i = 0; i < 30; i++) {
    await writeFile(
      join(paths.scenesDir, `topic-${i}.md`),
      serializeScene({ summary: `Topic number ${i} about things`, heat: i, created: T, updated: T, body: 'x\n' }),
    );
  }
  await syncSceneIndex(paths);
  const persona = Array.from({ length: 80 }, (_, i) => `- persona line ${i} with some detail </persona> & a < b`).join('\n');
  await writeFile(paths.personaFile, `${persona}\n\n${NAV_OPEN}\n- nav that must not be repeated\n${NAV_CLOSE}\n`);
  await e.strata.remember({ text: 'The user prefers dark roast coffee', scope: 'agent:main', importance: 0.9 });
  await e.strata.remember({ text: 'The deploy runs on Fridays', scope: 'global' });
  await e.strata.remember({ text: 'Another agent secret', scope: 'agent:other' });
}

describe('context bootstrap', () => {
  it('assembles persona, scene navigation and memories within the budget', async () => {
    env = await layerEnv();
    await seed(env);
    for (const budget of [120, 400, 2000]) {
      const result = await buildContext({ strata: env.strata, agentId: 'main', budgetTokens: budget });
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(estimateTokens(result.text)).toBe(result.tokens);
      expect(result.text).not.toContain('nav that must not be repeated');
      expect(result.text).not.toContain('Another agent secret');
      expect(result.text).not.toMatch(/<\/persona>[\s\S]*<\/persona>/); // the persona cannot close its own tag
      if (budget === 2000) {
        expect(result).toMatchObject({ persona: true, memories: 2 });
        expect(result.scenes).toBeGreaterThan(0);
        expect(result.text).toContain('topic-29.md (heat 29)'); // hottest first
        expect(result.text).toContain('dark roast coffee');
        // Neutralised like memory lines: only the tag-like `<`, and no HTML entities for the model to read.
        expect(result.text).toContain('with some detail \u2039/persona> & a < b');
        expect(result.text).not.toContain('&lt;');
      }
    }
  });

  it('uses recall when a query is given, and works without persona or scenes', async () => {
    env = await layerEnv();
    await env.strata.remember({ text: 'The user prefers dark roast coffee', scope: 'agent:main' });
    await env.strata.remember({ text: 'The deploy runs on Fridays', scope: 'agent:main' });
    const result = await buildContext({ strata: env.strata, agentId: 'main', query: 'coffee', budgetTokens: 500 });
    expect(result).toMatchObject({ persona: false, scenes: 0, memories: 1 });
    expect(result.text).toContain('dark roast coffee');
    expect(result.text).not.toContain('Fridays');
    expect(await buildContext({ strata: env.strata, agentId: 'nobody', query: 'zzzz' })).toMatchObject({ text: '', tokens: 0 });
  });

  it("adds the session's hierarchical summaries when given its key, within the budget", async () => {
    env = await layerEnv({ script: summaryModel });
    await writeL0(env.home, [...session({ key: 'proj', count: 40 }), ...session({ key: 'other', count: 40 })]);
    await runSummaries({
      home: env.home,
      l0: l0Of(env.home),
      llm: env.llm,
      config: { boundaryTokens: 500, chunkTokens: 500, mergeFanIn: 3 },
    });
    await env.strata.remember({ text: 'The deploy runs on Fridays', scope: 'agent:main' });
    const withKey = await buildContext({ strata: env.strata, agentId: 'main', sessionKey: 'proj', budgetTokens: 1000 });
    expect(withKey.summaries).toBeGreaterThan(0);
    expect(withKey.tokens).toBeLessThanOrEqual(1000);
    expect(withKey.text).toMatch(/<session-history>\n<summary level="\d"[^>]*>(chunk|merge) summary #\d+/);
    expect(withKey.text).toContain('Fridays');
    const without = await buildContext({ strata: env.strata, agentId: 'main', budgetTokens: 1000 });
    expect(without).toMatchObject({ summaries: 0 });
    expect(without.text).not.toContain('<session-history>');
    const tight = await buildContext({ strata: env.strata, agentId: 'main', sessionKey: 'proj', budgetTokens: 120 });
    expect(tight.tokens).toBeLessThanOrEqual(120);
  });

  it('rejects agent ids that could escape the home', async () => {
    env = await layerEnv();
    await expect(buildContext({ strata: env.strata, agentId: '../x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
