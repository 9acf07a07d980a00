import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { l0Of } from '../capture/helpers.js';
import { readTranscriptForJournal } from '../../src/capture/journal-source.js';
import { flushJournal } from '../../src/core/journal/index.js';
import { appendToDayLog } from '../../src/core/journal/day-log.js';
import { journalPaths } from '../../src/core/journal/options.js';
import { claudeTranscriptWithInjection, entryReply, journalDay, journalEnv, l0, promptOf, writeL0, type JournalEnv } from './helpers.js';

let env: JournalEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const T0 = '2026-11-21T10:00:00.000Z';
const at = (iso: string) => () => new Date(iso);
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('flushJournal', () => {
  it('writes a structured entry from a real Claude Code transcript; the injected memories and the secret never reach the LLM', async () => {
    env = await journalEnv({
      script: [
        entryReply({
          context: 'Debugging the spotter build',
          keyExchanges: ['Why the deploy failed'],
          decisions: ['Use blue-green deploys: no downtime'],
          lessons: ['Check the lockfile first'],
          actionItems: ['Write the rollback plan'],
        }),
      ],
    });
    const marker = 'INJECTED-RECALL-7f3a';
    const secret = 'sk-abcdefghijklmnopqrstuvwxyz123456';
    const path = await claudeTranscriptWithInjection(env.home, {
      marker,
      content: 'Remember: we deploy spotter with blue-green switching.',
      secret,
    });
    const transcript = await readTranscriptForJournal({ path, sessionId: 'cc-1' });
    expect(transcript.format).toBe('claude-code');
    expect(transcript.stats.stripped['relevant-memories']).toBe(1);

    const result = await flushJournal({
      home: env.home,
      l0: l0Of(env.home),
      llm: env.llm,
      sessionId: 'cc-1',
      agentId: 'claude-code',
      messages: transcript.messages,
      now: at(T0),
    });
    expect(result).toMatchObject({ status: 'written', source: 'transcript', path: journalDay(env.home, '2026-11-21') });
    expect(result.newMessages).toBe(transcript.messages.length);
    expect(result.omittedMessages).toBe(0);

    expect(env.server.requests).toHaveLength(1);
    const sent = env.server.requests[0]!.rawBody;
    expect(sent).not.toContain(marker);
    expect(sent).not.toContain('relevant-memories');
    expect(sent).not.toContain(secret);
    const prompt = promptOf(env.server.requests[0]);
    expect(prompt).toContain('user: Work on bead spotter-dov.');
    expect(prompt).toContain('we deploy spotter with blue-green switching');
    expect(prompt).toContain('[REDACTED:openai-key]');

    const log = await readFile(result.path!, 'utf8');
    expect(log).toBe(
      '# Journal 2026-11-21\n\n' +
        '## 10:00 UTC · session cc-1 (agent claude-code)\n\n' +
        '**Context:** Debugging the spotter build\n\n' +
        '**Key exchanges:**\n- Why the deploy failed\n\n' +
        '**Decisions:**\n- Use blue-green deploys: no downtime\n\n' +
        '**Lessons:**\n- Check the lockfile first\n\n' +
        '**Action items:**\n- Write the rollback plan\n\n',
    );
  });

  it('sends the newest messages that fit maxInputTokens and says how many were left out', async () => {
    env = await journalEnv({ script: [entryReply({ context: 'budgeted' })] });
    const path = await claudeTranscriptWithInjection(env.home, { marker: 'M', content: 'The newest message.', secret: 'none' });
    const { messages } = await readTranscriptForJournal({ path });
    const result = await flushJournal({
      home: env.home,
      l0: l0Of(env.home),
      llm: env.llm,
      sessionId: 'cc-2',
      messages,
      config: { maxInputTokens: 1000 },
      now: at(T0),
    });
    expect(result.status).toBe('written');
    expect(result.omittedMessages).toBeGreaterThan(0);
    const prompt = promptOf(env.server.requests[0]);
    expect(prompt).toContain(`[${result.omittedMessages} earlier messages omitted]`);
    expect(prompt).toContain('The newest message.');
    expect(prompt).not.toContain('Work on bead spotter-dov.');
  });

  it('reads the session from the L0 log and sends only what is new since the last flush', async () => {
    env = await journalEnv({ script: [entryReply({ context: 'first' }), entryReply({ context: 'second' })] });
    await writeL0(env.home, [
      l0({ session: 's1', role: 'user', content: 'How do we rotate the API keys?', at: '2026-11-21T09:00:00.000Z' }),
      l0({ session: 'other', role: 'user', content: 'Unrelated chatter from another session', at: '2026-11-21T09:00:30.000Z' }),
      l0({ session: 's1', role: 'assistant', content: 'Rotate them monthly via the vault CLI.', at: '2026-11-21T09:01:00.000Z' }),
    ]);
    const first = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 's1', now: at(T0) });
    expect(first).toMatchObject({ status: 'written', source: 'l0', newMessages: 2, omittedMessages: 0 });
    const prompt1 = promptOf(env.server.requests[0]);
    expect(prompt1).toContain('user: How do we rotate the API keys?');
    expect(prompt1).toContain('assistant: Rotate them monthly via the vault CLI.');
    expect(prompt1).not.toContain('Unrelated chatter');

    await writeL0(env.home, [
      l0({ session: 's1', role: 'user', content: 'Also document the vault policy.', at: '2026-11-21T10:05:00.000Z' }),
    ]);
    const second = await flushJournal({
      home: env.home,
      l0: l0Of(env.home),
      llm: env.llm,
      sessionId: 's1',
      now: at(plus(T0, 10 * 60_000)),
    });
    expect(second).toMatchObject({ status: 'written', newMessages: 1 });
    const prompt2 = promptOf(env.server.requests[1]);
    expect(prompt2).toContain('Also document the vault policy.');
    expect(prompt2).not.toContain('rotate the API keys');

    const third = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 's1', now: at(plus(T0, 20 * 60_000)) });
    expect(third).toMatchObject({ status: 'skipped' });
    expect(third.reason).toMatch(/no new messages/);
    expect(env.server.requests).toHaveLength(2);
    const log = await readFile(journalDay(env.home, '2026-11-21'), 'utf8');
    expect(log.match(/^## /gm)).toHaveLength(2);
    expect(log).toContain('## 10:10 UTC · session s1\n\n**Context:** second');
  });

  it('records a one-line entry when the LLM says nothing is worth keeping', async () => {
    env = await journalEnv({ script: [entryReply({ worthKeeping: false })] });
    await writeL0(env.home, [l0({ session: 's2', role: 'user', content: 'ok thanks', at: '2026-11-21T09:00:00.000Z' })]);
    const result = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 's2', now: at(T0) });
    expect(result.status).toBe('nothing-worth-keeping');
    expect(await readFile(result.path!, 'utf8')).toBe(
      '# Journal 2026-11-21\n\n## 10:00 UTC · session s2\n\nNothing worth keeping (1 messages reviewed).\n\n',
    );
  });

  it('keeps the input under pending/ after three failed attempts and writes it on the next run', async () => {
    env = await journalEnv({
      script: [
        { kind: 'status', status: 500 },
        { kind: 'raw', body: 'not json at all' },
        { kind: 'status', status: 503 },
      ],
    });
    await writeL0(env.home, [
      l0({ session: 'f1', role: 'user', content: 'We chose Postgres over MySQL for JSONB.', at: '2026-11-21T09:00:00.000Z' }),
    ]);
    const failed = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 'f1', now: at(T0), retryDelayMs: 1 });
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/retried by the next flush/);
    expect(env.server.requests).toHaveLength(3);
    const pendingDir = journalPaths(env.home).pendingDir;
    const files = (await readdir(pendingDir)).filter((n) => n.endsWith('.json'));
    expect(files).toHaveLength(1);
    const kept = JSON.parse(await readFile(join(pendingDir, files[0]!), 'utf8')) as { prompt: string; sessionId: string; failures: number };
    expect(kept).toMatchObject({ sessionId: 'f1', failures: 3 });
    expect(kept.prompt).toContain('We chose Postgres over MySQL for JSONB.');
    await expect(readFile(journalDay(env.home, '2026-11-21'), 'utf8')).rejects.toThrow(/ENOENT/);

    // The next flush (another session) retries the kept input first, then flushes its own.
    env.server.push(entryReply({ decisions: ['Postgres over MySQL for JSONB'] }), entryReply({ context: 'g1 work' }));
    await writeL0(env.home, [l0({ session: 'g1', role: 'user', content: 'Set up CI caching.', at: '2026-11-21T10:01:00.000Z' })]);
    const next = await flushJournal({
      home: env.home,
      l0: l0Of(env.home),
      llm: env.llm,
      sessionId: 'g1',
      now: at(plus(T0, 5 * 60_000)),
      retryDelayMs: 1,
    });
    expect(next).toMatchObject({ status: 'written', pending: { retried: 1, written: 1, remaining: 0 } });
    expect(promptOf(env.server.requests[3])).toBe(kept.prompt);
    expect((await readdir(pendingDir)).filter((n) => n.endsWith('.json'))).toEqual([]);
    const log = await readFile(journalDay(env.home, '2026-11-21'), 'utf8');
    expect(log).toContain('## 10:00 UTC · session f1\n\n**Decisions:**\n- Postgres over MySQL for JSONB');
    expect(log).toContain('## 10:05 UTC · session g1\n\n**Context:** g1 work');
    expect(log.indexOf('session f1')).toBeLessThan(log.indexOf('session g1'));
  });

  it('skips a second flush of the same session within 60 s and flushes after it', async () => {
    env = await journalEnv({ script: [entryReply({ context: 'one' }), entryReply({ context: 'two' })] });
    await writeL0(env.home, [l0({ session: 'd1', role: 'user', content: 'first message', at: '2026-11-21T09:59:00.000Z' })]);
    expect((await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 'd1', now: at(T0) })).status).toBe('written');
    await writeL0(env.home, [l0({ session: 'd1', role: 'user', content: 'second message', at: '2026-11-21T10:00:10.000Z' })]);

    const dup = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 'd1', now: at(plus(T0, 30_000)) });
    expect(dup.status).toBe('skipped');
    expect(dup.reason).toBe('session d1 was flushed 30 s ago (within 60 s)');
    expect(env.server.requests).toHaveLength(1);

    const later = await flushJournal({ home: env.home, l0: l0Of(env.home), llm: env.llm, sessionId: 'd1', now: at(plus(T0, 61_000)) });
    expect(later).toMatchObject({ status: 'written', newMessages: 1 });
    expect(promptOf(env.server.requests[1])).toContain('second message');
  });

  it('loses nothing when flushes and appends run at once', async () => {
    // Each request is answered from its own prompt, so concurrent calls get their own entries.
    env = await journalEnv({
      script: (request) => {
        const session = /Session (\S+)\./.exec(promptOf(request))?.[1] ?? 'unknown';
        return { ...entryReply({ context: `context of ${session}` }), delayMs: 30 };
      },
    });
    await writeL0(env.home, [
      l0({ session: 'c1', role: 'user', content: 'c1 says hello', at: '2026-11-21T09:00:00.000Z' }),
      l0({ session: 'c2', role: 'user', content: 'c2 says hello', at: '2026-11-21T09:00:00.000Z' }),
    ]);
    const results = await Promise.all(
      ['c1', 'c2'].map((sessionId) => flushJournal({ home: env!.home, l0: l0Of(env!.home), llm: env!.llm, sessionId, now: at(T0) })),
    );
    expect(results.map((r) => r.status)).toEqual(['written', 'written']);
    const paths = journalPaths(env.home);
    const at2 = new Date(T0);
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendToDayLog({ paths, at: at2, text: `## entry ${i}\n\nbody ${i}\n` })));
    const log = await readFile(journalDay(env.home, '2026-11-21'), 'utf8');
    expect(log).toContain('**Context:** context of c1');
    expect(log).toContain('**Context:** context of c2');
    for (let i = 0; i < 20; i++) expect(log).toContain(`## entry ${i}\n\nbody ${i}\n`);
    expect(log.match(/^# Journal/gm)).toHaveLength(1);
    expect(log.match(/^## /gm)).toHaveLength(22);
  });
});
