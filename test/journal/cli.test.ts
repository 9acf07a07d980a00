import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome, type CliResult } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { claudeTranscriptWithInjection, entryReply, l0, promptOf, writeL0 } from './helpers.js';

const journalCli = (args: string[]): Promise<CliResult> => runCli(args);

let server: ScriptedLlmServer;
let home: string;
beforeAll(async () => {
  server = await startScriptedLlmServer();
  home = await tempHome({
    embedder: { provider: 'none' },
    llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted', maxRetries: 0 },
  });
});
afterAll(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
});

describe('strata journal (CLI)', () => {
  it('flushes from L0 and from a transcript, dedupes, compiles and lints', async () => {
    const today = new Date().toISOString();
    await writeL0(home, [l0({ session: 'cli-s1', role: 'user', content: 'Decide the cache TTL: 5 minutes.', at: today })]);
    server.push(entryReply({ context: 'cache tuning', decisions: ['TTL 5 minutes'] }));
    const flushed = await journalCli(['--home', home, 'journal', 'flush', '--session', 'cli-s1', '--json']);
    expect(flushed.stderr).toBe('');
    expect(flushed.code).toBe(0);
    const report = JSON.parse(flushed.stdout) as { status: string; path: string; newMessages: number };
    expect(report).toMatchObject({ status: 'written', newMessages: 1 });
    expect(await readFile(report.path, 'utf8')).toContain('**Decisions:**\n- TTL 5 minutes');

    const again = await journalCli(['--home', home, 'journal', 'flush', '--session', 'cli-s1']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^skipped: session cli-s1 was flushed \d+ s ago \(within 60 s\)/);

    const transcript = await claudeTranscriptWithInjection(home, {
      marker: 'CLI-INJECTED-MARKER',
      content: 'Ship on Friday.',
      secret: 'none',
    });
    server.push(entryReply({ worthKeeping: false }));
    const fromTranscript = await journalCli([
      '--home',
      home,
      '--agent',
      'cc',
      'journal',
      'flush',
      '--session',
      'cc-9',
      '--transcript',
      transcript,
    ]);
    expect(fromTranscript.code).toBe(0);
    expect(fromTranscript.stdout).toMatch(/^nothing-worth-keeping: \d+ new messages -> /);
    expect(server.requests[1]!.rawBody).not.toContain('CLI-INJECTED-MARKER');
    expect(promptOf(server.requests[1])).toContain('Ship on Friday.');

    server.push({
      kind: 'text',
      text: JSON.stringify({
        articles: [{ slug: 'cache-ttl', title: 'Cache TTL', kind: 'concept', summary: '5 minutes', body: 'Chosen TTL: 5 minutes.' }],
      }),
    });
    const compiled = await journalCli(['--home', home, 'journal', 'compile', '--json']);
    expect(compiled.code).toBe(0);
    expect(JSON.parse(compiled.stdout)).toMatchObject({ status: 'compiled', created: ['cache-ttl'], articles: 1 });
    await writeFile(join(home, 'journal', 'knowledge', 'stray.md'), '# Stray\n\nSee [[nowhere]].\n');
    const problems = await journalCli(['--home', home, 'journal', 'lint', '--json']);
    expect(problems.code).toBe(1);
    expect(JSON.parse(problems.stdout)).toMatchObject({
      ok: false,
      brokenLinks: [{ from: 'stray', target: 'nowhere' }],
      orphans: ['stray'],
    });
  }, 60_000);

  it('exits 1 and keeps the input when generation fails', async () => {
    await writeL0(home, [l0({ session: 'cli-f', role: 'user', content: 'Something to keep.', at: new Date().toISOString() })]);
    // Bad credentials: another attempt cannot help, so the input is kept at once (no backoff waits).
    server.push({ kind: 'status', status: 401 });
    const failed = await journalCli(['--home', home, 'journal', 'flush', '--session', 'cli-f']);
    expect(failed.code).toBe(1);
    expect(server.requests).toHaveLength(4);
    expect(failed.stderr).toMatch(/flush failed: .* The input is kept in .*journal\/pending\/.*\.json and is retried by the next flush\./);
  }, 60_000);
});
