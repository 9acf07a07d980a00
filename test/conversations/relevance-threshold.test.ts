// Issue 16: `conversations search` listed ten unrelated turns for any query (nearest neighbours
// always exist). Fused scores below `recall.minScore` are now dropped, as memory recall does.
// Real parts: the default local embedder, the LanceDB conversation index and the JSONL L0 log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Strata } from '../../src/index.js';
import { tempDir } from '../capture/helpers.js';

const MESSAGES = [
  'I am planning a trip to Lisbon in March with my sister.',
  'Sounds fun! Do you want restaurant suggestions in Alfama?',
  'Yes, we love grilled sardines and vinho verde.',
  'Our staging database runs PostgreSQL 16 on port 5433.',
  'Remember that the deploy script needs the --force flag on Fridays.',
  'My daughter plays the cello in the school orchestra.',
];
const UNRELATED = 'quantum chromodynamics lattice gauge theory';

let tmp: ReturnType<typeof tempDir>;
let strata: Strata;
beforeAll(async () => {
  tmp = tempDir('strata-conv-threshold-');
  strata = await Strata.open({ home: tmp.dir });
  const now = Date.now();
  await strata.capture({
    agentId: 'main',
    sessionKey: 'agent:main:trip',
    host: 'live',
    messages: MESSAGES.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content, timestamp: now - 60_000 + i * 1000 })),
  });
  // Vectors are written in the background: embed them now so both channels run.
  expect((await strata.embedConversations()).remaining).toBe(0);
}, 120_000);
afterAll(async () => {
  await strata.close();
  tmp.cleanup();
});

describe('conversation search relevance threshold', () => {
  it('an unrelated query returns nothing, though the vector channel has neighbours for it', async () => {
    expect(await strata.searchConversations({ query: UNRELATED })).toEqual([]);
    // Without the floor the same query lists noise: the threshold, not an empty channel, removes it.
    expect((await strata.searchConversations({ query: UNRELATED, minScore: 0 })).length).toBeGreaterThan(0);
  });

  it('a related query still finds its turn first', async () => {
    const hits = await strata.searchConversations({ query: 'which port does the staging database use' });
    expect(hits[0]?.record.content).toContain('port 5433');
    expect(hits.every((h) => h.score >= strata.config.recall.minScore)).toBe(true);
  });

  it('rejects a negative minScore with a clear error', async () => {
    await expect(strata.searchConversations({ query: 'trip', minScore: -1 })).rejects.toThrow(/minScore must be a number >= 0/);
  });
});
