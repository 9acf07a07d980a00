/**
 * Every capture path makes what it captured searchable at once (issue 10: OpenClaw `agent_end` and
 * the Claude Code hooks used to land in the L0 log only). Each case captures one message with a
 * word found nowhere else and finds it with `searchConversations`.
 */
import { spawn } from 'node:child_process';
import { appendFile, cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import { Strata } from '../../src/strata.js';
import { BASE_ENV, stopResident } from '../hosts/claude-code-helpers.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { REPO_ROOT, runCli, tempHome } from '../support/run-cli.js';
import { CLAUDE_PROJECT, CLAUDE_SESSION, FIXTURES, piHeader, piMessage } from './helpers.js';

let home: string;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** The turns whose own words hold `word` (its neighbours are found too, by their index text, ranked below). */
async function found(word: string, options: { agentIds?: string[] } = {}): Promise<string[]> {
  const strata = await Strata.open({ home });
  try {
    const hits = await strata.searchConversations({ query: word, limit: 5, ...options });
    return hits.map((h) => h.record.content).filter((c) => c.toLowerCase().includes(word.toLowerCase()));
  } finally {
    await strata.close();
  }
}

/** An OpenClaw state dir with one session whose second message carries `word`. */
async function openClawSession(word: string): Promise<string> {
  const root = join(home, 'oc');
  const dir = join(root, 'agents', 'main', 'sessions');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 's1.jsonl'),
    [piHeader('s1'), piMessage(0, 'user', 'hello there'), piMessage(1, 'assistant', `the build host is ${word} now`)].join('\n') + '\n',
  );
  return root;
}

describe('capture paths feed the conversation index', () => {
  it('CLI: `strata ingest`', async () => {
    const root = await openClawSession('zanthoxylum');
    const r = await runCli(['--home', home, 'ingest', '--source', 'openclaw', '--path', root, '--no-embed']);
    expect(r.code, r.stderr).toBe(0);
    expect(await found('zanthoxylum')).toEqual(['the build host is zanthoxylum now']);
  }, 60_000);

  it('CLI: `strata watch`', async () => {
    const root = await openClawSession('quillwort');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(REPO_ROOT, 'src/cli/main.ts'),
        '--home',
        home,
        'watch',
        '--source',
        'openclaw',
        '--path',
        root,
        '--interval',
        '200',
        '--no-distill',
        '--no-embed',
      ],
      {
        env: { ...process.env, LANCEDB_LOG: 'error' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await expect.poll(() => found('quillwort'), { timeout: 45_000, interval: 500 }).toEqual(['the build host is quillwort now']);
      // A message appended while watching is searchable too.
      await appendFile(join(root, 'agents', 'main', 'sessions', 's1.jsonl'), `${piMessage(2, 'user', 'rename it to bladderwrack')}\n`);
      await expect.poll(() => found('bladderwrack'), { timeout: 45_000, interval: 500 }).toEqual(['rename it to bladderwrack']);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);

  it('library: live `strata.capture()`', async () => {
    const strata = await Strata.open({ home });
    try {
      const messages = [{ role: 'user', content: 'our mascot is a pangolin named Ferdinand', timestamp: 1_771_996_735_000 }];
      expect((await strata.capture({ agentId: 'main', sessionKey: 'agent:main:main', messages })).new).toBe(1);
      const hits = await strata.searchConversations({ query: 'pangolin', limit: 5, agentIds: ['main'] });
      expect(hits.map((h) => h.record.content)[0]).toBe('our mascot is a pangolin named Ferdinand');
      expect(await strata.searchConversations({ query: 'pangolin', limit: 5, agentIds: ['other'] })).toEqual([]);
    } finally {
      await strata.close();
    }
  });

  it('OpenClaw: the `agent_end` hook', async () => {
    const host = new OpenClawHarness({ pluginConfig: { home, distill: { enabled: false }, autoRecall: false } });
    host.load(createOpenClawPlugin());
    try {
      const session = host.session({ agentId: 'main', sessionKey: 'agent:main:discord:1' });
      await session.turn('The on-call rotation starts with Wojciech on Mondays.', { reply: 'Noted.' });
    } finally {
      await host.stopServices();
    }
    expect(await found('Wojciech', { agentIds: ['main'] })).toEqual(['The on-call rotation starts with Wojciech on Mondays.']);
  });

  it('Claude Code: the Stop hook', async () => {
    const transcript = join(home, 'claude', 'projects', CLAUDE_PROJECT, `${CLAUDE_SESSION}.jsonl`);
    await cp(join(FIXTURES, 'claude-code'), join(home, 'claude'), { recursive: true });
    const line = {
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/USER/projects/spotter',
      sessionId: CLAUDE_SESSION,
      version: '2.1.39',
      type: 'user',
      message: { role: 'user', content: 'the flaky test lives in the frobnicator module' },
      uuid: 'c0ffee00-0000-4000-8000-000000000001',
      timestamp: '2026-02-12T17:00:00.000Z',
    };
    await appendFile(transcript, `${JSON.stringify(line)}\n`);
    const payload = {
      session_id: CLAUDE_SESSION,
      transcript_path: transcript,
      cwd: '/home/USER/projects/spotter',
      hook_event_name: 'Stop',
      stop_hook_active: false,
    };
    try {
      // The hook hands the capture to the resident Strata process it starts for this home.
      const r = await runCli(['--home', home, 'hook', 'Stop', '--no-distill'], { input: JSON.stringify(payload), env: BASE_ENV });
      expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(await found('frobnicator', { agentIds: ['claude-code'] })).toEqual(['the flaky test lives in the frobnicator module']);
    } finally {
      await stopResident(home);
    }
  }, 60_000);
});
