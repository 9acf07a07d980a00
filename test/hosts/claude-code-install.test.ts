/**
 * `strata install|uninstall claude-code` through the real CLI on temp settings files that already
 * hold other tools' hooks and MCP servers.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addStrataHooks, isStrataHookCommand, removeStrataHooks } from '../../src/hosts/claude-code/settings.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';

const OTHER_SETTINGS = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'node ~/.mem/hooks/recall.mjs', timeout: 10 }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'node ~/.mem/hooks/stop.mjs', async: true }] }],
  },
};
const OTHER_MCP = { mcpServers: { 'shared-server': { type: 'http', url: 'https://example.com/mcp' } } };

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-cc-install-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Group { matcher?: string; hooks: Array<{ command: string }> }
interface ConfigFile { hooks: Record<string, Group[]>; mcpServers: Record<string, { args: string[] }> }

async function readJson(path: string): Promise<ConfigFile> {
  return JSON.parse(await readFile(path, 'utf8')) as ConfigFile;
}

async function backups(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((f) => f.includes('.strata-backup-')).sort();
}

describe('strata install claude-code', () => {
  it('--project merges hooks and the MCP server, is idempotent, backs up, and uninstall restores the originals', async () => {
    const settingsPath = join(dir, '.claude', 'settings.json');
    const mcpPath = join(dir, '.mcp.json');
    await mkdir(join(dir, '.claude'));
    await writeFile(settingsPath, JSON.stringify(OTHER_SETTINGS, null, 2));
    await writeFile(mcpPath, JSON.stringify(OTHER_MCP));
    const home = join(dir, 'strata home');

    const first = await runCli(['--home', home, '--agent', 'coder', 'install', 'claude-code', '--project', '--dir', dir]);
    expect(first.code, first.stderr).toBe(0);
    const settings = await readJson(settingsPath);
    expect((settings as unknown as typeof OTHER_SETTINGS).permissions).toEqual(OTHER_SETTINGS.permissions);
    expect(settings.hooks.PreToolUse).toEqual(OTHER_SETTINGS.hooks.PreToolUse);
    // Others' groups stay first and untouched; Strata adds its own group per event.
    expect(settings.hooks.SessionStart?.[0]).toEqual(OTHER_SETTINGS.hooks.SessionStart[0]);
    expect(settings.hooks.Stop?.[0]).toEqual(OTHER_SETTINGS.hooks.Stop[0]);
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']) {
      const ours = (settings.hooks[event] ?? []).flatMap((g) => g.hooks).filter((h) => isStrataHookCommand(h.command));
      expect(ours, event).toHaveLength(1);
      const command = ours[0]!.command;
      // Absolute node + absolute bin/strata.js, identity and home baked in (quoted: the home has a space).
      expect(command.startsWith(process.execPath)).toBe(true);
      // The fast hook entry when the package is built, else the bin launcher.
      const script = [join(REPO_ROOT, 'dist', 'hosts', 'claude-code', 'hook-entry.js'), join(REPO_ROOT, 'bin', 'strata.js')].find((p) => command.includes(p));
      expect(script && existsSync(script)).toBe(true);
      expect(command).toContain(`--home '${home}' --agent coder hook ${event}`);
    }
    expect(settings.hooks.SessionStart?.[1]?.matcher).toBe('startup|resume|clear|compact');
    const mcp = await readJson(mcpPath);
    expect(mcp.mcpServers['shared-server']).toEqual(OTHER_MCP.mcpServers['shared-server']);
    expect(mcp.mcpServers.strata).toEqual({ type: 'stdio', command: process.execPath, args: [join(REPO_ROOT, 'bin', 'strata.js'), '--home', home, '--agent', 'coder', 'mcp'] });

    const afterFirst = { settings: await readFile(settingsPath, 'utf8'), mcp: await readFile(mcpPath, 'utf8') };
    expect(await backups(join(dir, '.claude'))).toHaveLength(1);
    expect(await readJson(join(dir, '.claude', (await backups(join(dir, '.claude')))[0]!))).toEqual(OTHER_SETTINGS);
    expect(await backups(dir)).toHaveLength(1);

    const second = await runCli(['--home', home, '--agent', 'coder', 'install', 'claude-code', '--project', '--dir', dir]);
    expect(second.stdout).toMatch(/unchanged: .*settings\.json\nunchanged: .*\.mcp\.json/);
    expect({ settings: await readFile(settingsPath, 'utf8'), mcp: await readFile(mcpPath, 'utf8') }).toEqual(afterFirst);
    expect(await backups(join(dir, '.claude'))).toHaveLength(1);

    const removed = await runCli(['uninstall', 'claude-code', '--project', '--dir', dir]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readJson(settingsPath)).toEqual(OTHER_SETTINGS);
    expect(await readJson(mcpPath)).toEqual(OTHER_MCP);
    expect(await backups(join(dir, '.claude'))).toHaveLength(2);
  });

  it('--user honours CLAUDE_CONFIG_DIR; --dry-run writes nothing; uninstall deletes only files it created', async () => {
    const configDir = join(dir, 'claude-config');
    const env = { CLAUDE_CONFIG_DIR: configDir, HOME: join(dir, 'home') };
    const dry = await runCli(['install', 'claude-code', '--user', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would create: ${join(configDir, 'settings.json')}`);
    expect(existsSync(configDir)).toBe(false);

    await mkdir(configDir);
    const state = { numStartups: 3, projects: { '/x': { allowedTools: [] } } };
    await writeFile(join(configDir, '.claude.json'), JSON.stringify(state));
    const installed = await runCli(['install', 'claude-code', '--user'], { env });
    expect(installed.code, installed.stderr).toBe(0);
    expect((await readJson(join(configDir, 'settings.json'))).hooks.SessionEnd).toHaveLength(1);
    expect((await readJson(join(configDir, '.claude.json'))).mcpServers.strata?.args.at(-1)).toBe('mcp');
    expect(existsSync(join(dir, 'home', '.claude'))).toBe(false);

    const removed = await runCli(['uninstall', 'claude-code', '--user'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    expect(await readJson(join(configDir, '.claude.json'))).toEqual(state);
  });

  it('refuses to touch a settings file that is not valid JSON', async () => {
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), '{ "hooks": ');
    const result = await runCli(['install', 'claude-code', '--dir', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.json is not valid JSON/);
    expect(await readFile(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
  });
});

describe('settings merge', () => {
  it('removes only Strata handlers from a group shared with another tool', () => {
    const shared = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'other-tool stop' }, { type: 'command', command: '/usr/bin/node /opt/strata/bin/strata.js hook Stop' }] }] } };
    expect(removeStrataHooks(shared)).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'other-tool stop' }] }] } });
  });

  it('re-adding replaces the earlier Strata handler instead of duplicating it', () => {
    const once = addStrataHooks({ settings: {}, commandFor: (e) => `strata hook ${e}` });
    const twice = addStrataHooks({ settings: once, commandFor: (e) => `npx strata-memory hook ${e}` });
    expect(twice.hooks).toEqual(addStrataHooks({ settings: {}, commandFor: (e) => `npx strata-memory hook ${e}` }).hooks);
    expect(isStrataHookCommand('node ~/.mem/hooks/stop.mjs')).toBe(false);
  });
});
