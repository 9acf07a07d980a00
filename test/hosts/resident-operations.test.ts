/**
 * `strata mcp` and the CLI through the home's resident Strata process: a real resident on a temp
 * home, real `strata` processes and a real `strata mcp` over stdio with the MCP SDK client. What
 * ran where is read from the resident's own count of served operations (`status`).
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callResident, ResidentCallError } from '../../src/resident/client.js';
import { residentPaths } from '../../src/resident/protocol.js';
import { residentCommand, residentStamp } from '../../src/resident/stamp.js';
import { REPO_ROOT, runCli, tempHome, type CliResult } from '../support/run-cli.js';
import { BASE_ENV, runScript, stopResident } from './claude-code-helpers.js';
import { call, CLI, newClient, seed } from './mcp-helpers.js';

const HOOK_ENTRY = join(REPO_ROOT, 'src', 'hosts', 'claude-code', 'hook-entry.ts');
const stamp = residentStamp();
/** The resident's own environment: the default agent `coder` must never stand in for a caller with no agent. */
const RESIDENT_ENV = { ...process.env, ...BASE_ENV, LANCEDB_LOG: 'error', STRATA_DEFAULT_AGENT: 'coder' };
/** CLI and MCP processes: no identity, home or resident setting from the outer shell. */
const ENV = { ...BASE_ENV, STRATA_DEFAULT_AGENT: '' };

let home: string;

async function startResident(): Promise<number> {
  const { result } = await callResident({
    home,
    stamp,
    op: 'ping',
    deadline: Date.now() + 90_000,
    start: { ...residentCommand({ home, stamp }), env: RESIDENT_ENV },
  });
  return (result as { pid: number }).pid;
}

/** Operations the resident has served so far (`ops.run` is the operations table). */
async function served(op = 'ops.run'): Promise<number> {
  const { result } = await callResident({ home, stamp, op: 'status', deadline: Date.now() + 30_000 });
  return (result as { served: Record<string, number> }).served[op] ?? 0;
}

function strata(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(['--home', home, ...args], { env: { ...ENV, ...env } });
}

/** A UserPromptSubmit hook as Claude Code runs it; returns the context it injected. */
async function hookRecall(prompt: string, session: string): Promise<string> {
  const out = await runScript({
    script: HOOK_ENTRY,
    args: ['--home', home, '--agent', 'coder', 'hook', 'UserPromptSubmit'],
    input: JSON.stringify({ session_id: session, cwd: home, hook_event_name: 'UserPromptSubmit', prompt }),
    env: ENV,
  });
  expect(out.code, out.stderr).toBe(0);
  return out.stdout;
}

async function mcpClient(args: string[], mcpArgs: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, '--home', home, ...args, 'mcp', ...mcpArgs],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error', ...ENV },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient();
  // A server that died says why in the failing test's output.
  client.onclose = () => void (stderr.trim() && process.stderr.write(`strata mcp ${args.join(' ')}: ${stderr}\n`));
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  home = await tempHome({ embedder: { provider: 'none' } });
  await seed(home, [
    { text: 'The coder agent deploys Quokka to the aurora-eu-west-3 cluster', scope: 'agent:coder' },
    { text: 'Everyone drinks tea at the standup', scope: 'global' },
  ]);
  await startResident();
}, 120_000);

afterAll(async () => {
  await stopResident(home);
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe('the CLI through the resident', () => {
  it('reads and writes through the resident, and a hook recall sees the CLI write', async () => {
    const before = await served();
    const added = await strata(['--agent', 'coder', 'add', 'The coder agent pins the heronbase-42 staging database']);
    expect(added.code, added.stderr).toBe(0);
    const recalled = await strata(['--agent', 'coder', 'recall', 'aurora cluster', '--json']);
    expect(recalled.code, recalled.stderr).toBe(0);
    expect(recalled.stdout).toContain('aurora-eu-west-3');
    expect(await served()).toBe(before + 2);
    // Same engine: the resident's hook recall finds what the CLI just wrote.
    expect(await hookRecall('which staging database do we use, heronbase?', 'cli-write')).toContain('heronbase-42');
  });

  it('a write made in another process (STRATA_RESIDENT=0) is what the resident reads next: no stale cache', async () => {
    const before = await served();
    const added = await strata(['--agent', 'coder', 'add', 'The coder agent rotates the zephyr-77 signing key monthly'], {
      STRATA_RESIDENT: '0',
    });
    expect(added.code, added.stderr).toBe(0);
    expect(await served()).toBe(before);
    expect(await hookRecall('how often do we rotate the zephyr signing key?', 'in-process-write')).toContain('zephyr-77');
  });

  it('keeps the caller: no agent reads global only, even though the resident runs with a default agent', async () => {
    const before = await served();
    const none = await strata(['recall', 'aurora cluster', '--json']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).not.toContain('aurora-eu-west-3');
    const tea = await strata(['recall', 'tea standup', '--json']);
    expect(tea.stdout).toContain('drinks tea');
    expect(await served()).toBe(before + 2);
  });

  it('owner mode (--all-scopes) runs in this process: the socket never grants it', async () => {
    const before = await served();
    const all = await strata(['--all-scopes', 'recall', 'aurora cluster', '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('aurora-eu-west-3');
    expect(await served()).toBe(before);
  });

  it('the same exit codes and messages with and without the resident', async () => {
    const cases = [
      ['--agent', 'coder', 'get', '01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['--agent', 'coder', 'recall', 'x', '--limit', '100000'],
      ['--agent', 'coder', 'update', '01JZZZZZZZZZZZZZZZZZZZZZZZ', '--text', 'nope'],
      ['--agent', 'coder', 'history', '01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['--agent', 'coder', 'persona'],
    ];
    for (const args of cases) {
      const before = await served();
      const viaResident = await strata(args);
      const resident = (await served()) - before;
      const inProcess = await strata(args, { STRATA_RESIDENT: '0' });
      expect({ args, code: viaResident.code, stderr: viaResident.stderr, stdout: viaResident.stdout }).toEqual({
        args,
        code: inProcess.code,
        stderr: inProcess.stderr,
        stdout: inProcess.stdout,
      });
      // Bad input fails before any round trip; the rest ran in the resident.
      expect(resident).toBe(args.includes('--limit') ? 0 : 1);
    }
  }, 240_000);
});

describe('strata mcp through the resident', () => {
  it('serves tool calls through the resident, with the same results and tool errors as in-process', async () => {
    const resident = await mcpClient(['--agent', 'coder']);
    const local = await mcpClient(['--agent', 'coder'], ['--no-resident']);
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['memory_recall', { query: 'aurora cluster' }],
        ['memory_recall', { query: 'aurora cluster', scope: 'agent:other' }],
        ['memory_list', { limit: 5 }],
        ['memory_update', { id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', text: 'x' }],
        ['memory_store', { text: 'x', scope: 'agent:other' }],
        ['memory_recall', { query: '' }],
      ];
      for (const [tool, args] of calls) {
        const before = await served();
        const a = await call(resident, tool, args);
        const after = await served();
        const b = await call(local, tool, args);
        expect({ tool, args, isError: a.isError ?? false, text: a.text }).toEqual({
          tool,
          args,
          isError: b.isError ?? false,
          text: b.text,
        });
        // Bad input fails here, before any round trip; everything else ran in the resident.
        expect(after - before).toBe(args.query === '' ? 0 : 1);
      }
      const stored = await call(resident, 'memory_store', { text: 'The coder agent names releases after birds' });
      expect(stored.isError ?? false).toBe(false);
      expect(await hookRecall('what do we name releases after, birds?', 'mcp-write')).toContain('after birds');
      expect((await call(local, 'memory_recall', { query: 'releases birds' })).text).toContain('after birds');
    } finally {
      await resident.close();
      await local.close();
    }
  });

  it('without an agent it reads global only; a request cannot widen it', async () => {
    const client = await mcpClient([]);
    try {
      const before = await served();
      expect((await call(client, 'memory_recall', { query: 'aurora cluster' })).text).not.toContain('aurora-eu-west-3');
      const widened = await call(client, 'memory_recall', { query: 'aurora cluster', scope: 'agent:coder' });
      expect(widened.isError).toBe(true);
      expect(widened.text).toMatch(/^error \[FORBIDDEN_SCOPE\]/);
      expect(await served()).toBe(before + 2);
    } finally {
      await client.close();
    }
  });

  it('the socket itself refuses a caller it resolves differently, and never takes its own default agent for "no agent"', async () => {
    const info = JSON.parse(await readFile(residentPaths(home).info, 'utf8')) as { token: string };
    expect(info.token).toBeTruthy();
    const ask = (caller: { agentId?: string | null }, input: Record<string, unknown>) =>
      callResident({ home, stamp, op: 'ops.run', caller, input, deadline: Date.now() + 30_000 });
    const none = (await ask({ agentId: null }, { name: 'recall', input: { query: 'aurora cluster' } })).result as {
      results: Array<{ record: { scope: string } }>;
    };
    expect(none.results.map((r) => r.record.scope)).not.toContain('agent:coder');
    await expect(
      ask(
        { agentId: null },
        { name: 'recall', input: { query: 'x' }, expect: { scopes: ['global', 'agent:coder'], writeScope: 'agent:coder' } },
      ),
    ).rejects.toMatchObject({ code: 'RESIDENT_MISMATCH' });
    await expect(ask({ agentId: null }, { name: 'recall', input: { query: 'x', scope: 'agent:coder' } })).rejects.toBeInstanceOf(
      ResidentCallError,
    );
  });
});

describe('falling back to the engine in this process', () => {
  it('a stale token (the resident refuses) and a stopped resident: the CLI still answers, in this process', async () => {
    const paths = residentPaths(home);
    const saved = await readFile(paths.info, 'utf8');
    const info = JSON.parse(saved) as { token: string };
    await writeFile(paths.info, JSON.stringify({ ...info, token: 'f'.repeat(info.token.length) }), { mode: 0o600 });
    try {
      const stale = await strata(['--agent', 'coder', '--verbose', 'recall', 'aurora cluster', '--json']);
      expect(stale.code, stale.stderr).toBe(0);
      expect(stale.stdout).toContain('aurora-eu-west-3');
      expect(stale.stderr).toContain('RESIDENT_FORBIDDEN');
    } finally {
      await writeFile(paths.info, saved, { mode: 0o600 });
    }
    await stopResident(home);
    const down = await strata(['--agent', 'coder', '--verbose', 'recall', 'aurora cluster', '--json']);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout).toContain('aurora-eu-west-3');
    expect(down.stderr).toContain('no resident Strata process is running');
    // strata mcp falls back the same way (it starts none outside Claude Code unless asked).
    const client = await mcpClient(['--agent', 'coder']);
    try {
      expect((await call(client, 'memory_recall', { query: 'aurora cluster' })).text).toContain('aurora-eu-west-3');
    } finally {
      await client.close();
    }
    await startResident();
  });
});
