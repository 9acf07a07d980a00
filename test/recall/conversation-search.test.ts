import { afterEach, describe, expect, it } from 'vitest';
import { resolveRecallConfig } from '../../src/core/recall/config.js';
import { contentTerms } from '../../src/core/recall/terms.js';
import { buildSessionIndexTexts, buildTurnIndexText } from '../../src/core/recall/conversation/turn-text.js';
import { searchConversationTurns, type IndexedTurn, type TurnSearchSource } from '../../src/core/recall/conversation/search.js';
import { conversationFallback, formatConversationExcerpts } from '../../src/core/recall/conversation/fallback.js';
import { buildContext } from '../../src/core/layers/index.js';
import { layerEnv, type LayerEnv } from '../layers/helpers.js';

const MAY = Date.parse('2023-05-08T13:56:00Z');
const JUNE = Date.parse('2023-06-09T10:00:00Z');

/** Index texts for two sessions, built by core from the turns and their neighbours. */
function turns(): IndexedTurn[] {
  const sessions: Array<{ time: number; turns: Array<{ speaker: string; text: string }> }> = [
    {
      time: MAY,
      turns: [
        { speaker: 'Melanie', text: 'What pets do you have at home?' },
        { speaker: 'Caroline', text: 'A beagle called Oscar, he is four now.' },
        { speaker: 'Melanie', text: 'Cute! We have two cats.' },
      ],
    },
    {
      time: JUNE,
      turns: [
        { speaker: 'Caroline', text: 'I took Oscar to the vet this morning.' },
        { speaker: 'Melanie', text: 'Is he alright?' },
      ],
    },
  ];
  return sessions.flatMap((s, n) => {
    const texts = buildSessionIndexTexts({ turns: s.turns, time: s.time });
    return s.turns.map((t, i) => ({ key: `s${n}/${i}`, speaker: t.speaker, text: t.text, indexedText: texts[i]!, time: s.time }));
  });
}

/** Storage stand-in: term-frequency scoring over the index text (the search logic under test is core's). */
function source(all: IndexedTurn[]): TurnSearchSource {
  return {
    async searchText({ query, limit }) {
      const terms = contentTerms(query);
      return all
        .map((turn) => ({ turn, score: terms.reduce((n, t) => n + contentTerms(turn.indexedText).filter((x) => x === t).length, 0) }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}

describe('conversation turn index text', () => {
  it('holds the session date, the own words twice and the neighbouring turns', () => {
    const text = buildTurnIndexText({
      turn: { speaker: 'Caroline', text: 'A beagle called Oscar' },
      previous: { speaker: 'Melanie', text: 'What pets?' },
      next: { speaker: 'Melanie', text: 'Cute!' },
      time: MAY,
    });
    expect(text.split('\n')).toEqual([
      '8 May 2023',
      'Caroline: A beagle called Oscar',
      'Caroline: A beagle called Oscar',
      'Melanie: What pets?',
      'Melanie: Cute!',
    ]);
  });
});

describe('searchConversationTurns', () => {
  const config = resolveRecallConfig();

  it("ranks the answer above the other speaker's question that shares its words, scores in [0, 1]", async () => {
    const hits = await searchConversationTurns({
      source: source(turns()),
      query: 'What pets does Caroline have?',
      limit: 5,
      config,
      now: new Date('2023-07-01T00:00:00Z'),
    });
    expect(hits[0]!.turn.text).toMatch(/beagle called Oscar/);
    const question = hits.find((h) => h.turn.text.startsWith('What pets'));
    expect(question!.scores.form).toBe(0.8);
    expect(question!.score).toBeLessThan(hits[0]!.score);
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
  });

  it('prefers turns from the session a query names by date', async () => {
    const june = await searchConversationTurns({
      source: source(turns()),
      query: 'What happened with Oscar in June 2023?',
      limit: 5,
      config,
      now: new Date('2023-07-01T00:00:00Z'),
    });
    expect(june[0]!.turn.time).toBe(JUNE);
    const may = await searchConversationTurns({
      source: source(turns()),
      query: 'What happened with Oscar on 8 May 2023?',
      limit: 5,
      config,
      now: new Date('2023-07-01T00:00:00Z'),
    });
    expect(may[0]!.turn.time).toBe(MAY);
  });
});

describe('conversation hits as a recall source', () => {
  let env: LayerEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('searches conversations only when the memories do not answer, and marks excerpts with their date', async () => {
    let searched = 0;
    const search = async (limit: number) => {
      searched++;
      return searchConversationTurns({ source: source(turns()), query: 'Oscar beagle', limit, config: resolveRecallConfig() });
    };
    expect(await conversationFallback({ memories: { results: [{ score: 0.9 }] }, search })).toEqual([]);
    expect(searched).toBe(0);
    const hits = await conversationFallback({ memories: { results: [] }, search });
    expect(searched).toBe(1);
    const block = formatConversationExcerpts({ hits, maxTokens: 200 });
    expect(block).toMatch(
      /^<conversation-excerpts note="said in past conversations, not verified memories">\n- \[conversation, 8 May 2023\] Caroline: A beagle called Oscar/,
    );
  });

  it('the context bootstrap adds conversation excerpts when no memory answers the query', async () => {
    env = await layerEnv();
    await env.strata.remember({ text: 'The deploy runs on Fridays', scope: 'global' });
    const searchConversations = ({ query, limit }: { query: string; limit: number }) =>
      searchConversationTurns({ source: source(turns()), query, limit, config: resolveRecallConfig() });
    const result = await buildContext({
      strata: env.strata,
      agentId: 'main',
      query: "What's the name of Caroline's beagle?",
      budgetTokens: 600,
      searchConversations,
    });
    expect(result.conversations).toBeGreaterThan(0);
    expect(result.text).toContain('[conversation, 8 May 2023] Caroline: A beagle called Oscar');
    const answered = await buildContext({
      strata: env.strata,
      agentId: 'main',
      query: 'When does the deploy run?',
      budgetTokens: 600,
      searchConversations,
    });
    expect(answered.conversations).toBe(0);
  });
});
