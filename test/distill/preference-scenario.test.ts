import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import type { MemoryRecord } from '../../src/spec/memory-record.js';
import type { Strata } from '../../src/strata.js';
import {
  startScriptedLlmServer,
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedReply,
} from '../support/scripted-llm-server.js';
import {
  ctxOf,
  decisionsReply,
  extractionInput,
  llmClient,
  memoriesReply,
  msg,
  openStrata,
  reconcileInput,
  removeDir,
  schemaNameOf,
  tempDir,
  writeL0,
} from './helpers.js';

/**
 * Issue 14's preference scenario, on separate days: a preference stated, restated in other words,
 * changed ("I switched to Helix"), then asked about. It must end with exactly one current memory
 * and its superseded predecessor, whose validTo is the successor's validFrom (not the time of the
 * run), however the sessions sit in the log and however many runs it takes. Offline and with a
 * scripted LLM.
 */
const days = {
  stated: msg({ session: 'd1', role: 'user', content: 'I use Vim as my editor.', at: '2026-03-02T09:00:00Z', id: 'd1-u1' }),
  restated: msg({
    session: 'd2',
    role: 'user',
    content: 'By the way, my editor of choice is Vim.',
    at: '2026-05-10T14:00:00Z',
    id: 'd2-u1',
  }),
  changed: msg({ session: 'd3', role: 'user', content: 'I switched to Helix.', at: '2026-09-01T08:30:00Z', id: 'd3-u1' }),
  asked: msg({ session: 'd4', role: 'user', content: 'What editor do I use?', at: '2026-09-20T10:00:00Z', id: 'd4-u1' }),
};
const replies = (sessionKey: string) => msg({ session: sessionKey, role: 'assistant', content: 'Noted.', at: '2026-01-01T00:00:00Z' });

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

async function editorMemories(): Promise<MemoryRecord[]> {
  const all = await strata.list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
  return all.filter((m) => /vim|helix|editor/i.test(m.text));
}

function expectOneCurrentAndItsPredecessor(memories: MemoryRecord[]): void {
  const current = memories.filter((m) => m.validTo === null);
  const past = memories.filter((m) => m.validTo !== null);
  expect(current).toHaveLength(1);
  expect(current[0]!.text).toMatch(/Helix/);
  expect(past).toHaveLength(1);
  expect(past[0]!.text).toMatch(/Vim/);
  expect(past[0]!.validFrom).toBe('2026-03-02T09:00:00.000Z');
  // The Vim period ends when the Helix period starts, not when distillation ran.
  expect(past[0]!.validTo).toBe(current[0]!.validFrom);
  expect(current[0]!.validFrom).toBe('2026-09-01T08:30:00.000Z');
  expect(past[0]!.supersededBy).toBe(current[0]!.id);
  expect(current[0]!.supersedes).toBe(past[0]!.id);
}

describe('preference scenario offline (rules)', () => {
  it('stated, restated, changed, asked in one run: one current memory and its predecessor', async () => {
    await writeL0(home, [days.stated, days.restated, days.changed, days.asked]);
    const report = await runDistill({ ctx: ctxOf(strata), home });
    expect(report.decisions).toMatchObject({ create: 1, skip: 1, supersede: 1 });
    expectOneCurrentAndItsPredecessor(await editorMemories());
  });

  it('orders sessions by time, not by where they sit in the log', async () => {
    // A backfilled log: the change lands in the log before the older statements.
    await writeL0(
      home,
      [days.changed, days.asked, days.stated, days.restated].map((r) => ({ ...r, recordedAt: '2026-10-01T00:00:00Z' })),
    );
    await runDistill({ ctx: ctxOf(strata), home });
    expectOneCurrentAndItsPredecessor(await editorMemories());
  });

  it('one run per day gives the same history', async () => {
    for (const day of [days.stated, days.restated, days.changed, days.asked]) {
      await writeL0(home, [day, replies(day.sessionId)]);
      await runDistill({ ctx: ctxOf(strata), home, now: () => new Date(day.timestamp + 3_600_000) });
    }
    expectOneCurrentAndItsPredecessor(await editorMemories());
  });

  it('an older statement distilled later never replaces the newer one', async () => {
    await writeL0(home, [days.changed]);
    await runDistill({ ctx: ctxOf(strata), home });
    await writeL0(home, [days.stated]); // backfilled after the change was learned
    const late = await runDistill({ ctx: ctxOf(strata), home });
    expect(late.decisions).toMatchObject({ supersede: 0, skip: 1 });
    const current = (await editorMemories()).filter((m) => m.validTo === null);
    expect(current.map((m) => m.text)).toEqual(['The user switched to Helix.']);
  });
});

/** A scripted model: editor statements become third-person memories; the reconciler always says "supersede" for a different editor and "skip" for the same one. */
function editorModel(request: RecordedRequest): ScriptedReply {
  if (schemaNameOf(request) === 'memories') {
    const out = extractionInput(request).flatMap((m) => {
      if (m.role !== 'user' || /\?$/.test(m.content)) return [];
      if (/helix/i.test(m.content)) return [{ text: 'The user switched to Helix as their editor.', sourceMessageIds: [m.id] }];
      if (/choice/i.test(m.content)) return [{ text: "The user's editor of choice is Vim.", sourceMessageIds: [m.id] }];
      if (/vim/i.test(m.content)) return [{ text: 'The user uses Vim as their editor.', sourceMessageIds: [m.id] }];
      return [];
    });
    return memoriesReply(out);
  }
  const input = reconcileInput(request);
  return decisionsReply(
    input.candidates.map((c) => {
      const other = c.existing[0];
      if (!other) return { index: c.index, action: 'create' };
      const same = /vim/i.test(c.text) === /vim/i.test(other.text);
      // A model that gets time wrong: it always replaces a different editor, even with an older statement.
      return same ? { index: c.index, action: 'skip', targetId: other.id } : { index: c.index, action: 'supersede', targetId: other.id };
    }),
  );
}

describe('preference scenario with a scripted LLM', () => {
  let server: ScriptedLlmServer;
  beforeEach(async () => {
    server = await startScriptedLlmServer({ script: editorModel });
  });
  afterEach(async () => {
    await server.close();
  });

  it('stated, restated, changed, asked on separate days: one current memory and its predecessor', async () => {
    for (const day of [days.stated, days.restated, days.changed, days.asked]) {
      await writeL0(home, [day]);
      await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL) });
    }
    expectOneCurrentAndItsPredecessor(await editorMemories());
  });

  it('code, not the prompt, stops an older statement from superseding a newer one', async () => {
    await writeL0(home, [days.changed]);
    await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL) });
    await writeL0(home, [days.stated]);
    const late = await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL) });
    expect(late.decisions.supersede).toBe(0);
    const current = (await editorMemories()).filter((m) => m.validTo === null);
    expect(current.map((m) => m.text)).toEqual(['The user switched to Helix as their editor.']);
  });
});
