/**
 * The Claude Code hook entry process in remote mode: with STRATA_URL + STRATA_TOKEN in its
 * environment, SessionStart and UserPromptSubmit inject what the service holds for the token's
 * agent, and Stop ships the real transcript to the service (cursors stay in this machine's home).
 */
import { cp, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempHome } from '../support/run-cli.js';
import { BASE_ENV, runScript } from '../hosts/claude-code-helpers.js';
import { remoteService, type RemoteService } from './serve-process.js';

const ENTRY = join(REPO_ROOT, 'src', 'hosts', 'claude-code', 'hook-entry.ts');
const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts');
let service: RemoteService;
let laptopHome: string;

beforeAll(async () => {
  service = await remoteService(['coder', 'other']);
  laptopHome = await tempHome();
}, 60_000);

afterAll(async () => {
  await service?.close();
  await rm(laptopHome, { recursive: true, force: true });
});

const hook = (event: string, payload: unknown, agent = 'coder') =>
  runScript({
    script: ENTRY,
    args: ['--home', laptopHome, 'hook', event],
    input: JSON.stringify({ hook_event_name: event, ...(payload as object) }),
    env: { ...BASE_ENV, STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens[agent]!, STRATA_RESIDENT: '0' },
  });

describe('Claude Code hooks against a remote strata serve', () => {
  it('inject the service’s memories of the token’s agent and ship the transcript there', async () => {
    const add = await runCli(['--home', laptopHome, 'add', 'The coder agent pins Node 22 in every Dockerfile'], {
      env: { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.coder! },
    });
    expect(add.code, add.stderr).toBe(0);

    const start = await hook('SessionStart', { session_id: 'sess-1', source: 'startup' });
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('pins Node 22');
    const prompt = await hook('UserPromptSubmit', { session_id: 'sess-2', prompt: 'Which Node version do we pin in the Dockerfile?' });
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toContain('pins Node 22');
    // Another agent's hook never sees it.
    const other = await hook(
      'UserPromptSubmit',
      { session_id: 'sess-3', prompt: 'Which Node version do we pin in the Dockerfile?' },
      'other',
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).not.toContain('pins Node 22');

    const projects = join(laptopHome, 'claude', 'projects');
    await cp(join(FIXTURES, 'claude-code', 'projects'), projects, { recursive: true });
    const project = (await readdir(projects))[0]!;
    const session = (await readdir(join(projects, project))).find((f) => f.endsWith('.jsonl'))!;
    const stop = await hook('Stop', { session_id: session.replace(/\.jsonl$/, ''), transcript_path: join(projects, project, session) });
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toBe('');
    // Stored on the service (its log), not on the laptop; the laptop keeps only its cursor.
    expect(await readdir(service.home)).toContain('conversations');
    expect(await readdir(laptopHome)).not.toContain('conversations');
    expect(await readdir(laptopHome)).not.toContain('store');
  }, 180_000);

  it('follow the home config’s remote {url, tokenEnv} when STRATA_URL is not set', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, remote: { url: service.server.url, tokenEnv: 'CC_STRATA_TOKEN' } });
    try {
      const add = await runCli(['--home', home, 'add', 'The coder agent signs every release tag with the hardware key'], {
        env: { STRATA_URL: '', STRATA_TOKEN: '', CC_STRATA_TOKEN: service.tokens.coder! },
      });
      expect(add.code, add.stderr).toBe(0);
      const start = await runScript({
        script: ENTRY,
        args: ['--home', home, 'hook', 'SessionStart'],
        input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'sess-cfg', source: 'startup' }),
        env: { ...BASE_ENV, STRATA_URL: '', STRATA_TOKEN: '', CC_STRATA_TOKEN: service.tokens.coder!, STRATA_RESIDENT: '0' },
      });
      expect(start.code, start.stderr).toBe(0);
      expect(start.stderr).toBe('');
      expect(start.stdout).toContain('signs every release tag');
      // Answered by the service: no local engine opened here.
      expect(await readdir(home)).not.toContain('store');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});
