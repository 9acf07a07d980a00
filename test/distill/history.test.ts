import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDecisions, type Candidate } from '../../src/core/distill/index.js';
import { HistoryLog, revertLast, summarize } from '../../src/core/history/index.js';
import { NotFoundError } from '../../src/errors/index.js';
import type { Strata } from '../../src/strata.js';
import { ctxOf, openStrata, removeDir, tempDir } from './helpers.js';

let home: string;
let strata: Strata;
beforeEach(async () => {
  home = await tempDir();
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await removeDir(home);
});

const candidate = (text: string): Candidate => ({
  text,
  category: 'fact',
  importance: 0.6,
  confidence: 0.9,
  scope: 'global',
  temporal: 'static',
  keywords: [],
  agentId: 'main',
  sessionKey: 'agent:main:h',
  sourceMessageIds: ['h-1'],
});

describe('history log and revert', () => {
  it('logs a merge with the full previous record; revert restores the old text', async () => {
    const ctx = ctxOf(strata);
    const history = new HistoryLog({ home });
    const created = await strata.remember({ text: 'The user has a dog.', category: 'fact' });
    await applyDecisions({
      ctx,
      history,
      decisions: [
        {
          candidate: candidate('The dog is called Rex.'),
          kind: 'merge',
          targetId: created.id,
          text: 'The user has a dog called Rex.',
          reason: 'adds the name',
          by: 'llm',
          vector: null,
        },
      ],
    });
    expect((await strata.getOne({ id: created.id })).text).toBe('The user has a dog called Rex.');
    const [create, merge] = await history.historyOf({ id: created.id });
    expect(create).toMatchObject({ action: 'create', actor: 'api' });
    expect(merge).toMatchObject({
      action: 'merge',
      actor: 'distill',
      reason: 'adds the name',
      previous: { text: 'The user has a dog.' },
      next: { text: 'The user has a dog called Rex.' },
    });

    const undo = await revertLast({ ctx, history, id: created.id });
    expect(undo.restored).toEqual([created.id]);
    const restored = await strata.getOne({ id: created.id });
    expect(restored.text).toBe('The user has a dog.');
    expect(restored.source.messageIds).toBeUndefined();
  });

  it('re-inserts a forgotten memory (the engine logs the forget itself)', async () => {
    const ctx = ctxOf(strata);
    const history = new HistoryLog({ home });
    const { id } = await strata.remember({ text: 'The user lives in Lisbon.', category: 'fact' });
    const before = await strata.getOne({ id });
    await strata.forget({ ids: [id], actor: 'cli' });
    await expect(strata.getOne({ id })).rejects.toBeInstanceOf(NotFoundError);

    await revertLast({ ctx, history, id });
    expect(await strata.getOne({ id })).toMatchObject({ text: 'The user lives in Lisbon.', createdAt: before.createdAt });
    expect((await history.historyOf({ id })).map((e) => [e.actor, e.action])).toEqual([
      ['api', 'create'],
      ['cli', 'forget'],
      ['cli', 'revert'],
    ]);
  });

  it('reverts an engine update (re-embedding not needed without vectors) and keeps the audit trail', async () => {
    const ctx = ctxOf(strata);
    const history = new HistoryLog({ home });
    const { id } = await strata.remember({ text: 'The user works at Acme.', category: 'fact' });
    const before = await strata.getOne({ id });
    await strata.update({ id, text: 'The user works at Globex.', actor: 'mcp', reason: 'changed job' });
    expect(before.text).toBe('The user works at Acme.');
    await revertLast({ ctx, history, id });
    expect((await strata.getOne({ id })).text).toBe('The user works at Acme.');
    const log = await history.historyOf({ id });
    expect(log.map((e) => [e.actor, e.action])).toEqual([
      ['api', 'create'],
      ['mcp', 'update'],
      ['cli', 'revert'],
    ]);
    expect(log[1]?.reason).toBe('changed job');
    expect(log[2]?.previous?.text).toBe('The user works at Globex.');
  });

  it('revert without history is a NotFoundError', async () => {
    await expect(
      revertLast({ ctx: ctxOf(strata), history: new HistoryLog({ home }), id: '01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('concurrent appends from separate writers keep every line whole', async () => {
    const a = new HistoryLog({ home });
    const b = new HistoryLog({ home });
    const entry = (i: number) => ({
      id: `M${i % 3}`,
      actor: 'test',
      action: 'update' as const,
      reason: 'x'.repeat(5000),
      previous: null,
      next: summarize(null),
    });
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).append({ entries: [entry(i), entry(i + 1)] })));
    let count = 0;
    for await (const e of a.entries()) {
      expect(e.reason).toHaveLength(5000);
      count++;
    }
    expect(count).toBe(40);
    expect(await a.historyOf({ id: 'm0' })).toHaveLength(13); // i or i+1 divisible by 3, for i in 0..19
  });
});
