import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDecisions, reconcile, type Candidate } from '../../src/core/distill/index.js';
import { HistoryLog } from '../../src/core/history/index.js';
import type { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { ctxOf, decisionsReply, llmClient, openStrata, reconcileInput, removeDir, tempDir } from './helpers.js';

let home: string;
let server: ScriptedLlmServer;
let strata: Strata;
beforeEach(async () => {
  home = await tempDir();
  server = await startScriptedLlmServer();
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await server.close();
  await removeDir(home);
});

const candidate = (text: string, extra: Partial<Candidate> = {}): Candidate => ({
  text,
  category: 'preference',
  importance: 0.7,
  confidence: 0.9,
  scope: 'global',
  temporal: 'dynamic',
  keywords: [],
  agentId: 'main',
  sessionKey: 'agent:main:r',
  sourceMessageIds: ['r-1'],
  ...extra,
});

describe('reconcile', () => {
  it('sends one batched decision request; keep-both stores the contextualised text and leaves the other memory alone', async () => {
    const ctx = ctxOf(strata);
    const coffee = await strata.remember({ text: 'The user drinks coffee in the morning.', category: 'preference' });
    const python = await strata.remember({ text: 'The user writes Python scripts for data work.', category: 'fact' });
    server.push(
      decisionsReply([
        {
          index: 0,
          action: 'keep-both',
          targetId: coffee.id,
          text: 'The user drinks tea in the morning when working from home.',
          reason: 'different context',
        },
        {
          index: 1,
          action: 'merge',
          targetId: python.id,
          text: 'The user writes Python scripts for data work, using pandas.',
          reason: 'adds detail',
        },
      ]),
    );
    const result = await reconcile({
      ctx,
      llm: llmClient(server.baseURL),
      candidates: [
        candidate('The user drinks tea in the morning.'),
        candidate('The user uses pandas for Python data work.', { category: 'fact' }),
      ],
    });
    expect(server.requests).toHaveLength(1);
    const sent = reconcileInput(server.requests[0]!);
    expect(sent.candidates.map((c) => c.existing.map((e) => e.id))).toEqual([
      expect.arrayContaining([coffee.id]),
      expect.arrayContaining([python.id]),
    ]);
    expect(result.decisions.map((d) => d.kind)).toEqual(['keep-both', 'merge']);

    const applied = await applyDecisions({ ctx, history: new HistoryLog({ home }), decisions: result.decisions });
    expect(applied.map((a) => a.kind)).toEqual(['keep-both', 'merge']);
    const texts = (await strata.list({ scopes: ['global'], order: 'oldest' })).map((r) => r.text);
    expect(texts).toEqual([
      'The user drinks coffee in the morning.',
      'The user writes Python scripts for data work, using pandas.',
      'The user drinks tea in the morning when working from home.',
    ]);
    expect((await strata.getOne({ id: python.id })).source.messageIds).toEqual(['r-1']);
  });

  it('never touches a memory the model invented or one outside the candidate list: creates instead', async () => {
    const ctx = ctxOf(strata);
    const existing = await strata.remember({ text: 'The user prefers window seats on flights.', category: 'preference' });
    const other = await strata.remember({ text: 'The user is vegetarian.', category: 'fact', scope: 'agent:other' });
    server.push(decisionsReply([{ index: 0, action: 'supersede', targetId: other.id, reason: 'bogus' }]));
    const result = await reconcile({
      ctx,
      llm: llmClient(server.baseURL),
      candidates: [candidate('The user prefers aisle seats on flights.')],
    });
    expect(result.decisions[0]).toMatchObject({ kind: 'create', by: 'llm' });
    await applyDecisions({ ctx, history: new HistoryLog({ home }), decisions: result.decisions });
    expect((await strata.getOne({ id: existing.id })).validTo).toBeNull();
    expect((await strata.getOne({ id: other.id })).validTo).toBeNull();
    expect(await strata.count({ scopes: ['global'] })).toBe(2);
  });

  it('creates the candidates when the model cannot produce decisions even after the repair turn, so distillation never stalls', async () => {
    const ctx = ctxOf(strata);
    await strata.remember({ text: 'The user prefers window seats on flights.', category: 'preference' });
    // The first reply and the repair reply are both unusable.
    server.push({ kind: 'text', text: 'Sure! I would merge these.' }, { kind: 'text', text: '{"decisions": "merge"}' });
    const result = await reconcile({
      ctx,
      llm: llmClient(server.baseURL),
      candidates: [candidate('The user prefers aisle seats on long flights.')],
    });
    expect(server.requests).toHaveLength(2);
    expect(result.decisions[0]).toMatchObject({ kind: 'create', by: 'llm' });
    expect(result.decisions[0]!.reason).toMatch(/reconcile reply unusable/);
  });

  it('settles exact duplicates and unrelated candidates without calling the model', async () => {
    const ctx = ctxOf(strata);
    await strata.remember({ text: 'The user likes hiking.', category: 'preference' });
    const result = await reconcile({
      ctx,
      llm: llmClient(server.baseURL),
      candidates: [
        candidate('the user likes hiking'),
        candidate('Quarterly taxes are due in April.'),
        candidate('Quarterly taxes are due in April!'),
      ],
    });
    expect(server.requests).toHaveLength(0);
    expect(result.decisions.map((d) => [d.kind, d.by])).toEqual([
      ['skip', 'exact'],
      ['create', 'none-similar'],
      ['skip', 'exact'],
    ]);
  });
});
