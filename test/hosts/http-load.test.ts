import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../support/run-cli.js';
import { Strata } from '../../src/strata.js';
import { resolveCaller } from '../../src/core/caller.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { driveRecallLoad } from '../../bench/http-load.js';

describe('HTTP API under concurrent load', () => {
  let strata: Strata;
  let server: ListeningServer;

  beforeAll(async () => {
    strata = await Strata.open({ home: await tempHome() });
    await strata.rememberMany({
      items: Array.from({ length: 200 }, (_, i) => ({
        text: `Seed fact number ${i} about deploys, caches and reviews`,
        scope: i % 2 ? 'global' : 'agent:load',
      })),
    });
    server = await startHttpServer({
      strata,
      caller: resolveCaller({ config: strata.config, agentId: 'load' }),
      host: '127.0.0.1',
      port: 0,
      token: 'load-token',
    });
  });

  afterAll(async () => {
    await server?.close();
    await strata?.close();
  });

  it('serves 50 concurrent recall clients while a writer stores memories, with zero errors', async () => {
    const result = await driveRecallLoad({
      baseUrl: server.url,
      clients: 50,
      requestsPerClient: 4,
      writes: 40,
      token: 'load-token',
      queries: ['deploys', 'cache invalidation', 'code reviews', 'seed fact 42', 'what about deploy caches'],
      writeTexts: Array.from({ length: 40 }, (_, i) => `Written under load: memory ${i} about release trains`),
    });
    expect(result.errors).toEqual([]);
    expect(result.latenciesMs).toHaveLength(200);
    expect(result.writes).toBe(40);
    expect(await strata.count({ scopes: ['agent:load'] })).toBe(100 + 40);
  });
});
