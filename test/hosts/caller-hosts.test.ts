/**
 * The one caller resolver as the CLI and the Claude Code hooks use it: STRATA_AGENT_ID is the
 * CLI's identity too, no agent never means owner mode (`--all-scopes` does), an agent id that
 * cannot form its scope is refused before anything is captured under it.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHookInProcess } from '../../src/hosts/claude-code/in-process.js';
import { runCli, tempHome } from '../support/run-cli.js';

describe('one caller for the CLI', () => {
  let home: string;
  let bobId: string;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(['--home', home, ...args], { env: { STRATA_AGENT_ID: '', STRATA_DEFAULT_AGENT: '', ...env } });

  beforeAll(async () => {
    home = await tempHome();
    const added = await cli(['--agent', 'bob', '--json', 'add', 'BOBMARK the vault code is 9000']);
    expect(added.code, added.stderr).toBe(0);
    bobId = (JSON.parse(added.stdout) as { id: string }).id;
  });

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('takes STRATA_AGENT_ID as the identity (the CLI used to ignore it and write to global)', async () => {
    const out = await cli(['--json', 'add', 'Written by the env agent'], { STRATA_AGENT_ID: 'coder' });
    expect(out.code, out.stderr).toBe(0);
    expect((JSON.parse(out.stdout) as { record: { scope: string } }).record.scope).toBe('agent:coder');
    const flagWins = await cli(['--agent', 'bob', '--json', 'stats'], { STRATA_AGENT_ID: 'coder' });
    expect(JSON.parse(flagWins.stdout)).toMatchObject({ agent: 'bob', memories: 1 });
  }, 120_000);

  it('without an agent reads global only, says how to read more, and reads everything with --all-scopes', async () => {
    for (const cmd of ['get', 'history']) {
      const out = await cli([cmd, bobId]);
      expect(out.code, cmd).toBe(1);
      expect(out.stderr, cmd).toMatch(/^error \[NOT_FOUND\]: .*acts as \(no agent\) \[global\].*--all-scopes/);
      expect(out.stdout, cmd).not.toContain('BOBMARK');
    }
    const owner = await cli(['--all-scopes', '--json', 'get', bobId]);
    expect(owner.code, owner.stderr).toBe(0);
    expect(owner.stdout).toContain('BOBMARK');
  }, 120_000);

  it('refuses an agent id that cannot form a scope, as a usage error', async () => {
    const out = await cli(['--agent', '_hidden', 'add', 'nothing']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^error \[INVALID_ARGUMENT\]: Invalid agent id "_hidden"/);
    // --agent naming whose transcripts to capture is checked the same way (13.2: it used to be accepted).
    const ingest = await cli(['--agent', "x' OR '1'='1", 'ingest', '--source', 'jsonl', '--path', home]);
    expect(ingest.code).toBe(2);
    expect(ingest.stderr).toMatch(/^error \[INVALID_ARGUMENT\]: Invalid agent id/);
    expect(await readdir(home)).not.toContain('conversations');
    const env = await cli(['add', 'nothing'], { STRATA_AGENT_ID: "x' OR '1'='1" });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/STRATA_AGENT_ID/);
  }, 120_000);
});

describe('one caller for the Claude Code hooks', () => {
  it('refuses to capture under an agent id that cannot form a scope (it is never filed under global)', async () => {
    const home = await tempHome();
    const root = join(home, 'claude');
    await mkdir(join(root, 'projects', 'demo'), { recursive: true });
    const transcript = join(root, 'projects', 'demo', 'session-1.jsonl');
    await writeFile(
      transcript,
      JSON.stringify({
        type: 'user',
        uuid: 'u1',
        sessionId: 'session-1',
        timestamp: '2026-11-20T10:00:00.000Z',
        message: { role: 'user', content: 'remember that deploys are on Tuesdays' },
      }) + '\n',
    );
    for (const agentId of ['_hidden', 'ops team', 'björn']) {
      await expect(
        runHookInProcess({ home, agentId, input: { event: 'Stop', transcriptPath: transcript, distill: false }, env: {} }),
        agentId,
      ).rejects.toThrow(/Invalid agent id/);
    }
    expect(await readdir(home)).not.toContain('conversations');
    await rm(home, { recursive: true, force: true });
  });
});
