/**
 * Conversation search as a recall source, through the product (Strata on a temp home, real
 * LanceDB conversation index, the L0 log): a turn is found by its neighbours' words, a query that
 * names a date prefers that day's session, and `recall` and the context block add conversation
 * hits, marked as such with their date, when no memory answers.
 */
import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Strata } from '../../src/strata.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { tempHome } from '../support/run-cli.js';

const MAY_8 = Date.UTC(2023, 4, 8, 14);
const JUNE_20 = Date.UTC(2023, 5, 20, 14);

function rec(sessionId: string, i: number, role: 'user' | 'assistant', content: string, timestamp: number): L0Record {
  return {
    sessionKey: `agent:main:${sessionId}`,
    sessionId,
    agentId: 'main',
    host: 'live',
    id: `${sessionId}-${i}`,
    role,
    content,
    timestamp: timestamp + i * 1000,
    recordedAt: new Date(timestamp).toISOString(),
  };
}

let home: string;
let strata: Strata;

beforeEach(async () => {
  home = await tempHome({ embedder: { provider: 'none' } });
  strata = await Strata.open({ home });
  await strata.appendConversation({
    records: [
      rec('s1', 0, 'user', 'Did you ever get a dog?', MAY_8),
      rec('s1', 1, 'assistant', 'Yes, Oscar, a beagle. He is two now.', MAY_8),
      rec('s1', 2, 'user', 'We went hiking near the lake on the weekend.', MAY_8),
      rec('s1', 3, 'assistant', 'Sounds lovely, the weather was great.', MAY_8),
      rec('s2', 0, 'user', 'We went hiking up the mountain, a long hiking day this weekend.', JUNE_20),
      rec('s2', 1, 'assistant', 'Nice, how long did it take?', JUNE_20),
    ],
  });
});
afterEach(async () => {
  await strata.close();
  await rm(home, { recursive: true, force: true });
});

describe('conversation search through the product', () => {
  it("finds a turn by its neighbour's words: the answer to a question about a dog", async () => {
    const hits = await strata.searchConversations({ query: 'dog', limit: 5, agentIds: ['main'] });
    expect(hits.map((h) => h.record.id)).toContain('s1-1');
    // Its own words still rank first: the question that says "dog" itself.
    expect(hits[0]!.record.id).toBe('s1-0');
  });

  it('a query naming a date prefers the session of that date', async () => {
    const may = await strata.searchConversations({
      query: 'Where did we go hiking on 8 May 2023?',
      limit: 5,
      agentIds: ['main'],
      now: new Date(Date.UTC(2023, 7, 1)),
    });
    expect(may[0]!.record.sessionId).toBe('s1');
    const june = await strata.searchConversations({
      query: 'Where did we go hiking on 20 June 2023?',
      limit: 5,
      agentIds: ['main'],
      now: new Date(Date.UTC(2023, 7, 1)),
    });
    expect(june[0]!.record.sessionId).toBe('s2');
  });
});

describe('recall and the context block add conversation hits when memories do not answer', () => {
  it('recall marks conversation hits with their date; a memory that answers keeps them out', async () => {
    const ops = strata.as({ agentId: 'main', scopes: ['global', 'agent:main'], writeScope: 'agent:main', owner: false });
    const result = await ops.run('recall', { query: 'What is the name of the beagle?' });
    expect(result.results).toEqual([]);
    expect(result.conversations?.[0]).toMatchObject({
      kind: 'conversation',
      date: '2023-05-08',
      speaker: 'assistant',
      text: 'Yes, Oscar, a beagle. He is two now.',
    });
    const text = ops.text('recall', result);
    expect(text).toContain('From past conversations');
    expect(text).toContain('[conversation, 2023-05-08] assistant: Yes, Oscar, a beagle.');
    expect((await ops.run('recall', { query: 'What is the name of the beagle?', conversations: false })).conversations).toBeUndefined();

    await strata.remember({ text: 'The user has a beagle named Oscar.', scope: 'agent:main', category: 'fact' });
    expect((await ops.run('recall', { query: 'What is the name of the beagle?' })).conversations).toBeUndefined();
  });

  it('the context block carries them as <conversation-excerpts>, dated', async () => {
    const ops = strata.as({ agentId: 'main', scopes: ['global', 'agent:main'], writeScope: 'agent:main', owner: false });
    const context = await ops.run('context', { query: 'What is the name of the beagle?' });
    expect(context.conversations).toBeGreaterThan(0);
    expect(context.text).toContain('<conversation-excerpts note="said in past conversations, not verified memories">');
    expect(context.text).toContain('- [conversation, 8 May 2023] assistant: Yes, Oscar, a beagle.');
  });

  it('a caller without an agent sees no conversation', async () => {
    const ops = strata.as({ agentId: null, scopes: ['global'], writeScope: 'global', owner: false });
    expect((await ops.run('recall', { query: 'What is the name of the beagle?' })).conversations).toBeUndefined();
  });
});
