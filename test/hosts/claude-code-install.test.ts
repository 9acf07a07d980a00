/**
 * `strata install|uninstall claude-code` through the real CLI on temp settings files that already
 * hold other tools' hooks and MCP servers: modes, formatting, backups, exact restore, portable
 * project files, one identity. (The real Claude Code reads these files in test/e2e/claude-code.)
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editedText } from '../../src/hosts/claude-code/json-file.js';
import { detectLaunchKind, planLaunch } from '../../src/hosts/claude-code/launcher.js';
import { readOnlyPermissions } from '../../src/hosts/claude-code/install.js';
import { addStrataHooks, isStrataHookCommand, removeStrataHooks } from '../../src/hosts/claude-code/settings.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';

const OTHER_SETTINGS = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'node ~/.mem/hooks/recall.mjs', timeout: 10 }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
  },
};
const OTHER_MCP = { mcpServers: { 'shared-server': { type: 'http', url: 'https://example.com/mcp' } } };

let dir: string;
let home: string;
let env: Record<string, string>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-cc-install-'));
  home = join(dir, 'home');
  await mkdir(home);
  env = { HOME: home, CLAUDE_CONFIG_DIR: '', STRATA_HOME: '', STRATA_AGENT_ID: '' };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Handler = { command: string; timeout?: number; async?: boolean };
interface Settings {
  hooks: Record<string, Array<{ matcher?: string; hooks: Handler[] }>>;
  permissions?: { allow: string[] };
  enabledMcpjsonServers?: string[];
}

async function json<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

async function mode(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

async function files(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true }).catch(() => [] as string[])).sort();
}

function strataHandlers(settings: Settings): Handler[] {
  return Object.values(settings.hooks ?? {})
    .flatMap((groups) => groups.flatMap((g) => g.hooks))
    .filter((h) => isStrataHookCommand(h.command));
}

// Each case runs the real CLI several times (child processes): slow on a loaded machine.
describe('strata install claude-code --user', { timeout: 180_000 }, () => {
  it('keeps modes and formatting, backs up under the Strata home, and uninstall restores the bytes', async () => {
    const settingsPath = join(home, '.claude', 'settings.json');
    const claudeJson = join(home, '.claude.json');
    await mkdir(join(home, '.claude'));
    // Formatting of their own (tabs, key order) must survive; 0600 must stay 0600.
    const settingsText = JSON.stringify(OTHER_SETTINGS, null, '\t') + '\n';
    const claudeText = JSON.stringify({ numStartups: 3, ...OTHER_MCP, oauthAccount: { emailAddress: 'a@b.c' } }, null, 2);
    await writeFile(settingsPath, settingsText);
    await writeFile(claudeJson, claudeText);
    await chmod(settingsPath, 0o600);
    await chmod(claudeJson, 0o600);

    const installed = await runCli(['--agent', 'coder', 'install', 'claude-code', '--user', '--allow-read-tools'], { env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(`act as agent coder with home ${join(home, '.strata')}`);
    expect(await mode(settingsPath)).toBe(0o600);
    expect(await mode(claudeJson)).toBe(0o600);
    const settings = await json<Settings>(settingsPath);
    expect(settings.hooks.PreToolUse).toEqual(OTHER_SETTINGS.hooks.PreToolUse);
    expect(settings.hooks.SessionStart?.[0]).toEqual(OTHER_SETTINGS.hooks.SessionStart[0]);
    expect(strataHandlers(settings)).toHaveLength(5);
    for (const h of strataHandlers(settings)) {
      expect(h.command).toContain(`--home ${join(home, '.strata')} --agent coder hook`);
      expect(h.async).toBeUndefined();
    }
    expect(settings.permissions?.allow).toEqual(['Bash(npm test:*)', ...readOnlyPermissions()]);
    // Minimal edits: the tab-indented keys Strata did not touch are byte-identical.
    expect(await readFile(settingsPath, 'utf8')).toContain('\t"hooks": {\n\t\t"SessionStart": [');
    const mcp = await json<{ mcpServers: Record<string, { args: string[] }>; oauthAccount: unknown }>(claudeJson);
    expect(mcp.mcpServers['shared-server']).toEqual(OTHER_MCP.mcpServers['shared-server']);
    expect(mcp.mcpServers.strata!.args.slice(-5)).toEqual(['--home', join(home, '.strata'), '--agent', 'coder', 'mcp']);
    expect(mcp.oauthAccount).toEqual({ emailAddress: 'a@b.c' });

    // Backups only under the Strata home, 0600; nothing next to the files.
    expect((await files(home)).filter((f) => f.includes('backup') && !f.startsWith('.strata'))).toEqual([]);
    const backups = (await files(join(home, '.strata', 'backups'))).filter((f) => f.endsWith('.json') && !f.endsWith('manifest.json'));
    expect(backups).toHaveLength(2);
    for (const b of backups) expect(await mode(join(home, '.strata', 'backups', b))).toBe(0o600);

    const again = await runCli(['--agent', 'coder', 'install', 'claude-code', '--user', '--allow-read-tools'], { env });
    expect(again.stdout).toMatch(/unchanged: .*settings\.json\nunchanged: .*\.claude\.json/);

    const removed = await runCli(['uninstall', 'claude-code', '--user'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(settingsPath, 'utf8')).toBe(settingsText);
    expect(await readFile(claudeJson, 'utf8')).toBe(claudeText);
    expect(await mode(settingsPath)).toBe(0o600);
    expect(await mode(claudeJson)).toBe(0o600);
  });

  it('after the host changed .claude.json, uninstall removes only Strata entries; it keeps a permission the user had', async () => {
    const claudeJson = join(home, '.claude.json');
    await writeFile(claudeJson, JSON.stringify({ numStartups: 1 }, null, 2), { mode: 0o600 });
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__strata__memory_recall'] } }), {
      mode: 0o600,
    });
    expect((await runCli(['install', 'claude-code', '--user', '--allow-read-tools'], { env })).code).toBe(0);
    const state = await json<Record<string, unknown>>(claudeJson);
    await writeFile(claudeJson, JSON.stringify({ ...state, numStartups: 2, tipsHistory: { a: 1 } }, null, 2));
    await chmod(claudeJson, 0o600);

    expect((await runCli(['uninstall', 'claude-code', '--user'], { env })).code).toBe(0);
    expect(await json(claudeJson)).toEqual({ numStartups: 2, tipsHistory: { a: 1 } });
    expect(await mode(claudeJson)).toBe(0o600);
    expect(await json(join(home, '.claude', 'settings.json'))).toEqual({ permissions: { allow: ['mcp__strata__memory_recall'] } });
  });

  it('honours CLAUDE_CONFIG_DIR; --dry-run writes nothing; creates new files 0600 and deletes them on uninstall', async () => {
    const configDir = join(dir, 'claude-config');
    const withConfig = { ...env, CLAUDE_CONFIG_DIR: configDir };
    const dry = await runCli(['install', 'claude-code', '--user', '--dry-run'], { env: withConfig });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would create: ${join(configDir, 'settings.json')}`);
    expect(existsSync(configDir)).toBe(false);

    const installed = await runCli(['install', 'claude-code', '--user'], { env: withConfig });
    expect(installed.code, installed.stderr).toBe(0);
    expect(await mode(join(configDir, 'settings.json'))).toBe(0o600);
    expect(await mode(join(configDir, '.claude.json'))).toBe(0o600);
    expect(existsSync(join(home, '.claude'))).toBe(false);
    expect((await runCli(['uninstall', 'claude-code', '--user'], { env: withConfig })).code).toBe(0);
    expect(await files(configDir)).toEqual([]);
  });

  it('refuses to touch a settings file that is not valid JSON', async () => {
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude', 'settings.json'), '{ "hooks": ');
    const result = await runCli(['install', 'claude-code', '--user'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.json is not valid JSON/);
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
  });
});

describe('strata install claude-code --project', { timeout: 180_000 }, () => {
  it('writes hooks to settings.local.json and a portable .mcp.json entry; nothing machine-specific in committed files', async () => {
    const project = join(dir, 'repo');
    await mkdir(join(project, '.claude'), { recursive: true });
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify(OTHER_SETTINGS, null, 2));
    await writeFile(join(project, '.mcp.json'), JSON.stringify(OTHER_MCP, null, 2) + '\n');
    const committed = { settings: await readFile(join(project, '.claude', 'settings.json'), 'utf8') };

    const out = await runCli(['install', 'claude-code', '--project', '--dir', project], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(await readFile(join(project, '.claude', 'settings.json'), 'utf8')).toBe(committed.settings);
    const mcpText = await readFile(join(project, '.mcp.json'), 'utf8');
    expect(mcpText).not.toContain(dir);
    expect(JSON.parse(mcpText)).toEqual({
      mcpServers: {
        ...OTHER_MCP.mcpServers,
        strata: { type: 'stdio', command: 'npx', args: ['-y', 'strata-memory', 'mcp', '--agent', 'claude-code'] },
      },
    });
    const local = await json<Settings>(join(project, '.claude', 'settings.local.json'));
    expect(strataHandlers(local)).toHaveLength(5);
    expect(local.enabledMcpjsonServers).toEqual(['strata']);
    // No backup lands in the repository.
    expect((await files(project)).filter((f) => f.includes('backup'))).toEqual([]);

    const removed = await runCli(['uninstall', 'claude-code', '--project', '--dir', project], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(join(project, '.mcp.json'), 'utf8')).toBe(JSON.stringify(OTHER_MCP, null, 2) + '\n');
    expect(existsSync(join(project, '.claude', 'settings.local.json'))).toBe(false);
  });

  it("a home other than ~/.strata goes to this machine's local MCP scope, not to .mcp.json", async () => {
    const project = join(dir, 'repo');
    await mkdir(project);
    const custom = join(dir, 'elsewhere');
    const out = await runCli(['--home', custom, 'install', 'claude-code', '--project', '--dir', project], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
    const state = await json<{ projects: Record<string, { mcpServers: Record<string, { args: string[] }> }> }>(join(home, '.claude.json'));
    expect(state.projects[project]!.mcpServers.strata!.args).toEqual(
      expect.arrayContaining(['--home', custom, '--agent', 'claude-code', 'mcp']),
    );
    expect((await runCli(['--home', custom, 'uninstall', 'claude-code', '--project', '--dir', project], { env })).code).toBe(0);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });
});

describe('launch commands', () => {
  const base = { version: '1.2.3', projectDir: '/work/app', env: { PATH: '' }, execPath: '/usr/bin/node' };

  it('picks the command by how Strata is installed, never an absolute path into node_modules or _npx', async () => {
    const prefix = join(dir, 'prefix');
    const pkg = join(prefix, 'lib', 'node_modules', 'strata-memory');
    await mkdir(join(prefix, 'bin'), { recursive: true });
    await mkdir(pkg, { recursive: true });
    await writeFile(join(prefix, 'bin', 'strata-memory'), '#!/bin/sh\n', { mode: 0o755 });
    expect(detectLaunchKind(pkg)).toBe('global');
    expect(planLaunch({ ...base, packageRoot: pkg, scope: 'user' }).hook).toEqual([join(prefix, 'bin', 'strata-memory')]);
    expect(planLaunch({ ...base, packageRoot: pkg, scope: 'user', env: { PATH: join(prefix, 'bin') } }).hook).toEqual(['strata-memory']);

    const local = planLaunch({ ...base, packageRoot: '/work/app/node_modules/strata-memory', scope: 'project' });
    expect(local.hook).toEqual(['"$CLAUDE_PROJECT_DIR"/node_modules/.bin/strata-memory']);
    const elsewhere = planLaunch({ ...base, packageRoot: '/work/app/node_modules/strata-memory', scope: 'user' });
    expect(elsewhere.hook).toEqual(['npx', '-y', 'strata-memory@1.2.3']);
    expect(elsewhere.notes[0]).toMatch(/npm install -g strata-memory/);
    expect(planLaunch({ ...base, packageRoot: '/root/.npm/_npx/abc/node_modules/strata-memory', scope: 'user' }).hook).toEqual([
      'npx',
      '-y',
      'strata-memory@1.2.3',
    ]);
    expect(planLaunch({ ...base, packageRoot: REPO_ROOT, scope: 'user' }).kind).toBe('checkout');
  });

  it("recognises every command form install writes (and nothing else) as Strata's", () => {
    for (const command of [
      'strata-memory --home /h --agent a hook Stop',
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/strata-memory --home /h --agent a hook SessionStart',
      'npx -y strata-memory@1.2.3 --home /h --agent a hook UserPromptSubmit',
      '/usr/bin/node /opt/strata/bin/strata.js hook Stop',
      "/usr/bin/node /opt/strata/dist/hosts/claude-code/hook-entry.js --home '/a b' hook SessionEnd",
    ])
      expect(isStrataHookCommand(command), command).toBe(true);
    expect(isStrataHookCommand('node ~/.mem/hooks/stop.mjs')).toBe(false);
  });
});

describe('settings merge', () => {
  it('removes only Strata handlers from a group shared with another tool', () => {
    const shared = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'other-tool stop' },
              { type: 'command', command: '/usr/bin/node /opt/strata/bin/strata.js hook Stop' },
            ],
          },
        ],
      },
    };
    expect(removeStrataHooks(shared)).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'other-tool stop' }] }] } });
  });

  it('re-adding replaces the earlier Strata handler instead of duplicating it', () => {
    const once = addStrataHooks({ settings: {}, commandFor: (e) => `strata hook ${e}` });
    const twice = addStrataHooks({ settings: once, commandFor: (e) => `npx strata-memory hook ${e}` });
    expect(twice.hooks).toEqual(addStrataHooks({ settings: {}, commandFor: (e) => `npx strata-memory hook ${e}` }).hooks);
  });

  it("edits change only the values that changed, in the file's own indentation", () => {
    const text = '{\n    "a": 1,\n    "b": { "keep": [1,2,3], "x": 1 }\n}\n';
    const out = editedText({
      text,
      before: { a: 1, b: { keep: [1, 2, 3], x: 1 } },
      after: { a: 1, b: { keep: [1, 2, 3], x: 2 }, c: true },
    });
    expect(out).toContain('"keep": [1,2,3]');
    expect(JSON.parse(out)).toEqual({ a: 1, b: { keep: [1, 2, 3], x: 2 }, c: true });
    expect(out).toMatch(/\n {4}"c": true\n/);
  });

  it('--allow-read-tools names exactly the read-only MCP tools', () => {
    const expected = ['conversation_search', 'context_bootstrap', 'memory_explain', 'memory_list', 'memory_recall', 'memory_stats'].map(
      (t) => `mcp__strata__${t}`,
    );
    expect(readOnlyPermissions().sort()).toEqual(expected.sort());
  });
});
