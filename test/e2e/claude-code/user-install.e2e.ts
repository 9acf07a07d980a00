/**
 * Real Claude Code (each pinned version) with Strata installed the way the README says for one
 * user: `npm install -g strata-memory`, then `strata-memory install claude-code --user
 * --allow-read-tools`. Every turn is a real `claude -p` against the scripted Anthropic API; the
 * tests run in order and share one sandbox per version.
 */
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSIONS } from '../versions.js';
import {
  CLAUDE_ON_PATH,
  DISTILL_PROMPT,
  createSandbox,
  isStrataCall,
  occurrences,
  strataLogs,
  type ClaudeSandbox,
} from './support/sandbox.js';
import { installStrataGlobally } from './support/strata-package.js';

const MEMORY = 'Project Quokka deploys to the aurora-eu-west-3 Kubernetes cluster.';
const MEMORY_TOKEN = 'aurora-eu-west-3';
const FOREIGN_SETTINGS = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
};

interface Snapshot {
  text: string;
  mode: number;
}

async function snapshot(path: string): Promise<Snapshot> {
  return { text: await readFile(path, 'utf8'), mode: (await stat(path)).mode & 0o777 };
}

function sessionOf(result: { stdout: string }): string {
  const last = result.stdout.trim().split('\n').at(-1) ?? '{}';
  return (JSON.parse(last) as { session_id: string }).session_id;
}

/** Files whose name marks a Strata backup, anywhere under `dir` (node_modules and the Strata home skipped). */
async function strayBackups(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((e) => /strata-backup/.test(e) && !e.startsWith('.strata') && !e.includes('node_modules'));
}

describe.each(CLAUDE_CODE_VERSIONS)('Claude Code $version, Strata installed for the user', ({ version, node }) => {
  let sb: ClaudeSandbox;
  let settingsPath: string;
  let claudeJsonPath: string;
  let originalSettings: Snapshot;
  let quokkaSession = '';
  const strata = (...args: string[]) => sb.run('strata-memory', args);

  beforeAll(async () => {
    const install = await installStrataGlobally();
    sb = await createSandbox({ version, nodeVersion: node, strata: install });
    settingsPath = join(sb.home, '.claude', 'settings.json');
    claudeJsonPath = join(sb.home, '.claude.json');
    // A user who has used Claude Code: its own ~/.claude.json (0600), another MCP server, settings of their own.
    expect((await sb.claude(['-p', 'hello'])).code).toBe(0);
    expect((await sb.claude(['mcp', 'add', '--scope', 'user', 'other-server', '--', 'node', '/nonexistent/server.js'])).code).toBe(0);
    await mkdir(join(sb.home, '.claude'), { recursive: true });
    await writeFile(settingsPath, JSON.stringify(FOREIGN_SETTINGS, null, 2) + '\n', { mode: 0o600 });
    await chmod(settingsPath, 0o600);
    originalSettings = await snapshot(settingsPath);
  });

  afterAll(async () => {
    await sb?.close();
  });

  it('install --user keeps both files 0600, backs up under the Strata home, and uninstall restores them byte for byte', async () => {
    const before = { settings: originalSettings, claudeJson: await snapshot(claudeJsonPath) };
    expect(before.claudeJson.mode).toBe(0o600);

    const install = await strata('install', 'claude-code', '--user', '--allow-read-tools');
    expect(install.code, install.stderr).toBe(0);
    for (const path of [settingsPath, claudeJsonPath]) expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await strayBackups(sb.home)).toEqual([]);
    expect((await readdir(join(sb.strataHome, 'backups'), { recursive: true })).length).toBeGreaterThan(0);

    const uninstall = await strata('uninstall', 'claude-code', '--user');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(await snapshot(settingsPath)).toEqual(before.settings);
    expect(await snapshot(claudeJsonPath)).toEqual(before.claudeJson);

    expect((await strata('install', 'claude-code', '--user', '--allow-read-tools')).code).toBe(0);
  });

  it('pins one identity into the hooks and the MCP entry, with commands that survive npm update and npx cache cleanup', async () => {
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string; async?: boolean }> }>>;
      permissions: { allow: string[] };
    };
    const commands = Object.values(settings.hooks)
      .flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)))
      .filter((c) => c.includes('strata'));
    expect(commands).toHaveLength(5);
    for (const command of commands) {
      expect(command).not.toMatch(/node_modules|_npx/);
      expect(command).toContain('--agent claude-code');
      expect(command).toContain(`--home ${sb.strataHome}`);
    }
    // Stop must not be async: Claude Code kills async hooks when `-p` exits.
    expect(settings.hooks.Stop?.flatMap((g) => g.hooks).some((h) => h.command.includes('strata') && h.async)).toBe(false);
    expect(settings.permissions.allow).toEqual(
      expect.arrayContaining(['Bash(npm test:*)', 'mcp__strata__memory_recall', 'mcp__strata__memory_list']),
    );
    expect(settings.permissions.allow).not.toContain('mcp__strata__memory_store');

    const mcp = (JSON.parse(await readFile(claudeJsonPath, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers;
    expect(Object.keys(mcp).sort()).toEqual(['other-server', 'strata']);
    const entry = [mcp.strata!.command, ...mcp.strata!.args].join(' ');
    expect(entry).not.toMatch(/node_modules|_npx/);
    expect(entry).toContain('--agent claude-code');
    expect(entry).toContain(`--home ${sb.strataHome}`);
  });

  it('claude mcp list shows Strata connected', async () => {
    const list = await sb.claude(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/strata:.*Connected/);
  });

  it('the seeded memory reaches every model request exactly once, in a new and in a resumed session', async () => {
    expect((await strata('--agent', 'claude-code', 'add', MEMORY)).code).toBe(0);
    const mark = sb.server.requests.length;
    const first = await sb.claude(['-p', 'Where does Project Quokka deploy?', '--output-format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const session = sessionOf(first);
    quokkaSession = session;
    const resumed = await sb.claude(['-p', 'Remind me which cluster Quokka goes to', '--resume', session, '--output-format', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    // The agent's requests only: with `claude` on PATH the hooks distill through `claude -p` (Strata's
    // distill, reconcile and journal prompts, run by the resident and the worker meanwhile) on the same server.
    const requests = sb.server.requests.slice(mark).filter((r) => !isStrataCall(r));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.map((r) => occurrences(r, MEMORY_TOKEN))).toEqual(requests.map(() => 1));
  });

  it('captures each session on Stop into conversation search, under a key of its own', async () => {
    const said = await sb.claude(['-p', 'Please remember that our staging database is called heronbase-42.', '--output-format', 'json']);
    expect(said.code, said.stderr).toBe(0);
    const session = sessionOf(said);
    const search = async () => {
      const r = await strata('--agent', 'claude-code', 'conversations', 'search', 'heronbase-42', '--json');
      return r.code === 0
        ? (JSON.parse(r.stdout) as { results: Array<{ record: { sessionId: string; sessionKey: string } }> }).results.map((h) => h.record)
        : [];
    };
    await expect
      .poll(search, { timeout: 60_000, interval: 1_000 })
      .toEqual(expect.arrayContaining([expect.objectContaining({ sessionId: session })]));
    const hit = (await search()).find((h) => h.sessionId === session)!;
    expect(hit.sessionKey).toContain(session);

    // The Quokka session (resumed once) and this one: one key each, not one per project.
    const sessions = JSON.parse((await strata('--agent', 'claude-code', 'sessions', '--json')).stdout) as {
      sessions: Array<{ sessionKey: string; sessionId: string }>;
    };
    const keyOf = (id: string) => sessions.sessions.filter((s) => s.sessionId === id).map((s) => s.sessionKey);
    expect(keyOf(quokkaSession)).toEqual([expect.stringContaining(quokkaSession)]);
    expect(keyOf(session)).toEqual([expect.stringContaining(session)]);
  });

  it('the model reads what the hooks learned through mcp__strata__memory_recall', async () => {
    const learned = async () => (await strata('--agent', 'claude-code', 'list', '--json')).stdout;
    try {
      await expect.poll(learned, { timeout: 60_000, interval: 1_000 }).toContain('heronbase-42');
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${await strataLogs(sb.strataHome)}`, { cause: error });
    }
    const mark = sb.server.requests.length;
    const asked = await sb.claude([
      '-p',
      'What is the staging database called? [tool:mcp__strata__memory_recall {"query":"staging database name"}]',
    ]);
    expect(asked.code, asked.stderr).toBe(0);
    const answered = sb.server.requests.slice(mark).filter((r) => r.lastToolUses.includes('mcp__strata__memory_recall'));
    expect(answered).toHaveLength(1);
    expect(answered[0]!.toolResults.map((t) => t.text).join('\n')).toContain('heronbase-42');
    expect(asked.stdout).toContain('heronbase-42');
  });

  it.runIf(CLAUDE_ON_PATH)("the hooks distilled through the user's own claude CLI, whose session Strata never captured", async () => {
    // No llm configured and `claude` on PATH: the hooks chose the claude-code provider by themselves.
    const distills = sb.server.requests.filter((r) => DISTILL_PROMPT.test(r.system));
    expect(distills.length).toBeGreaterThan(0);
    expect(distills.some((r) => r.userTexts.join('\n').includes('heronbase-42'))).toBe(true);
    // The child `claude -p` runs in the temp dir with hooks off and STRATA_HOOK_GUARD set: every
    // captured session is one the user ran in the project, none is Strata's own.
    const slug = sb.project.replace(/[^A-Za-z0-9]/g, '-');
    const listed = JSON.parse((await strata('--agent', 'claude-code', 'sessions', '--json')).stdout) as {
      sessions: Array<{ sessionKey: string }>;
    };
    expect(listed.sessions.length).toBeGreaterThan(0);
    for (const s of listed.sessions) expect(s.sessionKey).toContain(slug);
  });

  it('a broken config.json is reported to the model, the log and `strata doctor`; fixing it recovers', async () => {
    const configPath = join(sb.strataHome, 'config.json');
    const good = await readFile(configPath, 'utf8').catch(() => undefined);
    await writeFile(configPath, '{ "embedder": ');
    const mark = sb.server.requests.length;
    const broken = await sb.claude(['-p', 'Where does Project Quokka deploy?']);
    expect(broken.code, broken.stderr).toBe(0);
    // The agent's first request (Strata's own claude -p calls from earlier sessions may still be arriving).
    const request = sb.server.requests
      .slice(mark)
      .filter((r) => !isStrataCall(r))
      .at(0)!;
    expect(request.rawBody.includes('Strata long-term memory is unavailable'), 'SessionStart says memory is unavailable').toBe(true);
    expect(occurrences(request, MEMORY_TOKEN)).toBe(0);
    const log = await readFile(join(sb.strataHome, 'logs', 'hooks.jsonl'), 'utf8');
    expect(log).toContain('config.json');

    if (good === undefined) await writeFile(configPath, '{}\n');
    else await writeFile(configPath, good);
    const doctor = await strata('doctor');
    expect(doctor.stdout).toMatch(/claude-code hooks.*fail/i);
    const mark2 = sb.server.requests.length;
    expect((await sb.claude(['-p', 'Where does Project Quokka deploy?'])).code).toBe(0);
    const healed = sb.server.requests
      .slice(mark2)
      .filter((r) => !isStrataCall(r))
      .at(0)!;
    expect(occurrences(healed, MEMORY_TOKEN)).toBe(1);
  });

  it('uninstall removes exactly what install added, keeping what Claude Code changed meanwhile', async () => {
    const current = JSON.parse(await readFile(claudeJsonPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    delete current.mcpServers.strata;
    const out = await strata('uninstall', 'claude-code', '--user');
    expect(out.code, out.stderr).toBe(0);
    expect(await snapshot(settingsPath)).toEqual(originalSettings);
    expect(JSON.parse(await readFile(claudeJsonPath, 'utf8'))).toEqual(current);
    expect((await stat(claudeJsonPath)).mode & 0o777).toBe(0o600);
  });
});
