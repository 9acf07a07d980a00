import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresJournalStore } from '../../src/backends/journal-postgres/index.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { entryReply, promptOf } from '../journal/helpers.js';
import { startScriptedLlmServer, type RecordedRequest } from '../support/scripted-llm-server.js';
import { testPostgres } from '../support/postgres.js';
import { runJsonChild } from './run-child.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

interface ChildResult {
  written: number;
  skipped: number;
  compiledDays: string[];
  compileSkipped: number;
}

/** Six sessions over three days: session i talks at 09:00 and is flushed at 10:00 of day i % 3. */
const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'];
const SESSIONS = Array.from({ length: 6 }, (_, i) => ({ id: `s${i}`, day: DAYS[i % 3]! }));

function records(): L0Record[] {
  return SESSIONS.flatMap((s, i) =>
    [0, 1].map((n) => {
      const timestamp = Date.parse(`${s.day}T09:0${n}:00Z`);
      return {
        sessionKey: `agent:main:${s.id}`,
        sessionId: s.id,
        agentId: 'main',
        host: 'openclaw' as const,
        id: `m${i}-${n}`,
        role: n === 0 ? ('user' as const) : ('assistant' as const),
        content: n === 0 ? `Session ${s.id}: we decided to pin tool version ${i}.` : `Noted, version ${i} for ${s.id}.`,
        timestamp,
        recordedAt: new Date(timestamp).toISOString(),
      };
    }),
  );
}

function runChild(args: string[]): Promise<ChildResult> {
  return runJsonChild<ChildResult>('journal-child.ts', args, 'journal child');
}

const isCompile = (r: RecordedRequest) => promptOf(r).startsWith('Existing articles');

/**
 * Two machines (own homes, own processes, own pools) running the journal's flush and compile on
 * one database at once, released together at a barrier before each phase: every session is
 * flushed once and every day compiled once between them. The control runs the same with the
 * store's locks replaced by a no-op, and the same work is done twice.
 */
describe.skipIf(!pg)('two journal workers in two processes on one PostgreSQL database', () => {
  async function scenario(lock: 'lock' | 'nolock') {
    const schema = pg!.schemaName('jrn2');
    const dir = await mkdtemp(join(tmpdir(), 'strata-two-journals-'));
    // Slow enough that both workers are inside one session's flush (or one compile) at once.
    const server = await startScriptedLlmServer({
      script: (request) => {
        if (!isCompile(request))
          return { ...entryReply({ context: `worked on ${/Session (\S+)\./.exec(promptOf(request))?.[1]}` }), delayMs: 300 };
        const day = /entries of (\S+):/.exec(promptOf(request))?.[1] ?? 'x';
        const articles = [{ slug: `notes-${day}`, title: `Notes ${day}`, kind: 'concept', summary: day, body: `What happened on ${day}.` }];
        return { kind: 'text', text: JSON.stringify({ articles }), delayMs: 300 };
      },
    });
    try {
      const writer = await Strata.open({
        home: join(dir, 'home-w'),
        env: { STRATA_POSTGRES_URL: pg!.url },
        overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
      });
      try {
        expect((await writer.appendConversation({ records: records() })).written).toBe(12);
      } finally {
        await writer.close();
      }
      const sessions = JSON.stringify(SESSIONS.map((s) => ({ id: s.id, at: `${s.day}T10:00:00.000Z` })));
      const args = (name: string) => [join(dir, `home-${name}`), pg!.url, schema, server.baseURL, dir, name, sessions, lock];
      const [a, b] = await Promise.all([runChild(args('a')), runChild(args('b'))]);
      const reader = createPostgresJournalStore({ url: pg!.url, schema, poolSize: 1 });
      try {
        const entries = await Promise.all(DAYS.map(async (d) => ((await reader.readDay(d)) ?? '').match(/^## /gm)?.length ?? 0));
        return {
          a,
          b,
          flushCalls: server.requests.filter((r) => !isCompile(r)).length,
          compileCalls: server.requests.filter(isCompile).length,
          entries,
          articles: (await reader.readArticles()).map((x) => x.slug),
        };
      } finally {
        await reader.close();
      }
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }

  it('flush each session once and compile each day once between them', async () => {
    const r = await scenario('lock');
    console.log(`[two-journals] with locks: ${JSON.stringify(r)}`);
    expect(r.flushCalls).toBe(6);
    expect(r.a.written + r.b.written).toBe(6);
    expect(r.a.skipped + r.b.skipped).toBe(6);
    expect(r.entries).toEqual([2, 2, 2]);
    expect(r.compileCalls).toBe(3);
    expect([...r.a.compiledDays, ...r.b.compiledDays].sort()).toEqual(DAYS);
    expect(r.articles).toEqual(DAYS.map((d) => `notes-${d}`));
  }, 180_000);

  it('control: with the locks replaced by a no-op, sessions are flushed and days compiled twice', async () => {
    const r = await scenario('nolock');
    console.log(`[two-journals] without locks: ${JSON.stringify(r)}`);
    expect(r.flushCalls).toBeGreaterThan(6);
    expect(r.entries.reduce((x, y) => x + y, 0)).toBeGreaterThan(6);
    expect(r.compileCalls).toBeGreaterThan(3);
  }, 180_000);
});
