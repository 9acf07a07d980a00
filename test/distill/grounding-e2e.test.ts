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
 * A sloppy extractor behind a real HTTP server: from one session it writes the port the user
 * corrected, the corrected port, a one-off request as a rule, and a rule the user did state. The
 * distill run must store only what the user's own words bear out.
 */
function sloppyExtractor(request: RecordedRequest): ScriptedReply {
  if (schemaNameOf(request) === 'memories') {
    const input = extractionInput(request);
    const cite = (pattern: RegExp) => input.filter((m) => m.role === 'user' && pattern.test(m.content)).map((m) => m.id);
    return memoriesReply([
      { text: "The user's local Postgres runs on port 5433.", category: 'fact', sourceMessageIds: cite(/localhost 5433/) },
      { text: "The user's local Postgres runs on port 5434.", category: 'fact', sourceMessageIds: cite(/sorry, 5434/) },
      { text: 'The user always wants replies written in German.', sourceMessageIds: cite(/in German/) },
      { text: 'Every migration file must be wrapped in a transaction.', category: 'rule', sourceMessageIds: cite(/from now on/) },
    ]);
  }
  return decisionsReply(reconcileInput(request).candidates.map((c) => ({ index: c.index, action: 'create' })));
}

const session = [
  ['user', 'migrations fail on my local, db is on localhost 5433'],
  ['assistant', 'Connecting to localhost:5433 and checking schema_migrations.'],
  ['user', 'sorry, 5434. 5433 is the old pg13 container i keep forgetting to kill'],
  ['assistant', 'Fixed: the dirty version is cleared and the migration re-applied.'],
  ['user', 'nice. from now on every migration file we write gets wrapped in a transaction'],
  ['user', 'and write the note to the team in German pls, half of them are in Munich this week'],
] as const;

let home: string;
let server: ScriptedLlmServer;
let strata: Strata;

beforeEach(async () => {
  home = await tempDir();
  server = await startScriptedLlmServer({ script: sloppyExtractor });
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await server.close();
  await removeDir(home);
});

describe('distill checks extractor output against the conversation (scripted LLM on loopback)', () => {
  it('drops the corrected value and the one-off made a rule; keeps the correction and the stated rule', async () => {
    await writeL0(
      home,
      session.map(([role, content], i) => msg({ session: 's1', role, content, at: `2026-11-02T10:0${i}:00Z`, id: `s1-${i + 1}` })),
    );
    const report = await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL, { home }) });

    const stored = (await strata.list({ scopes: ['global', 'agent:main'] })).map((m) => m.text).sort();
    expect(stored).toEqual(
      ["The user's local Postgres runs on port 5434.", 'Every migration file must be wrapped in a transaction.'].sort(),
    );
    expect(report.rejected.byReason.ungrounded).toBe(2);
  });
});
