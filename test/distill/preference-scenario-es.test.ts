import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
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
 * Issue 14's preference scenario in Spanish, offline: stated, restated in other words, changed, asked,
 * on separate days, typed the way people type (accents or not). One current memory and its
 * superseded predecessor, the Vim period ending when the Helix one starts.
 */
const days = [
  msg({ session: 'd1', role: 'user', content: 'Uso Vim como editor.', at: '2026-03-02T09:00:00Z', id: 'd1-u1' }),
  msg({ session: 'd2', role: 'user', content: 'por cierto, mi editor de siempre es Vim', at: '2026-05-10T14:00:00Z', id: 'd2-u1' }),
  msg({ session: 'd3', role: 'user', content: 'me cambie a Helix', at: '2026-09-01T08:30:00Z', id: 'd3-u1' }),
  msg({ session: 'd4', role: 'user', content: '¿Qué editor uso?', at: '2026-09-20T10:00:00Z', id: 'd4-u1' }),
];

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

describe('preference scenario in Spanish, offline (rules)', () => {
  it('ends with one current memory and its predecessor, in one run or one run per day', async () => {
    for (const perDay of [false, true]) {
      if (perDay) {
        await strata.close();
        await removeDir(home);
        home = await tempDir();
        strata = await openStrata(home);
        for (const day of days) {
          await writeL0(home, [day]);
          await runDistill({ ctx: ctxOf(strata), home, now: () => new Date(day.timestamp + 3_600_000) });
        }
      } else {
        await writeL0(home, days);
        const report = await runDistill({ ctx: ctxOf(strata), home });
        expect(report.decisions).toMatchObject({ create: 1, skip: 1, supersede: 1 });
      }
      const all = await strata.list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
      const current = all.filter((m) => m.validTo === null);
      const past = all.filter((m) => m.validTo !== null);
      expect(current.map((m) => m.text)).toEqual(['Me cambie a Helix.']);
      expect(past.map((m) => m.text)).toEqual(['Uso Vim como editor.']);
      expect(past[0]!.validTo).toBe(current[0]!.validFrom);
      expect(current[0]!.supersedes).toBe(past[0]!.id);
    }
  });
});

/**
 * A scripted model that writes memories in the language of the conversation, as the extraction
 * prompt asks, short as extractors often write them, and also the mistake of keeping the question.
 */
function spanishModel(request: RecordedRequest): ScriptedReply {
  if (schemaNameOf(request) === 'memories') {
    const out = extractionInput(request).flatMap((m) => {
      if (m.role !== 'user') return [];
      if (/\?/.test(m.content)) return [{ text: 'El usuario preguntó qué editor usa.', sourceMessageIds: [m.id] }];
      if (/helix/i.test(m.content)) return [{ text: 'El usuario se cambió a Helix.', sourceMessageIds: [m.id] }];
      if (/siempre/i.test(m.content)) return [{ text: 'Su editor de siempre es Vim.', sourceMessageIds: [m.id] }];
      return [{ text: 'El usuario usa Vim.', sourceMessageIds: [m.id] }];
    });
    return memoriesReply(out);
  }
  const input = reconcileInput(request);
  return decisionsReply(
    input.candidates.map((c) => {
      const other = c.existing.find((e) => /vim|helix/i.test(e.text));
      if (!other) return { index: c.index, action: 'create' };
      const same = /vim/i.test(c.text) === /vim/i.test(other.text);
      return same ? { index: c.index, action: 'skip', targetId: other.id } : { index: c.index, action: 'supersede', targetId: other.id };
    }),
  );
}

describe('preference scenario in Spanish with a scripted LLM', () => {
  let server: ScriptedLlmServer;
  beforeEach(async () => {
    server = await startScriptedLlmServer({ script: spanishModel });
  });
  afterEach(async () => {
    await server.close();
  });

  it('keeps the short Spanish memories, drops the question, and ends with one current memory and its predecessor', async () => {
    for (const day of days) {
      await writeL0(home, [day]);
      await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL), now: () => new Date(day.timestamp + 3_600_000) });
    }
    const all = await strata.list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
    expect(all.filter((m) => m.validTo === null).map((m) => m.text)).toEqual(['El usuario se cambió a Helix.']);
    const past = all.filter((m) => m.validTo !== null);
    expect(past.map((m) => m.text)).toEqual(['El usuario usa Vim.']);
    expect(past[0]!.validTo).toBe(all.find((m) => m.validTo === null)!.validFrom);
  });
});
