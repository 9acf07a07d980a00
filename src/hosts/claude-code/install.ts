/**
 * `strata install|uninstall claude-code`: merges Strata's hooks into settings.json and registers the
 * MCP server, idempotently (an unchanged file is not rewritten) and with a timestamped backup of
 * every file it changes.
 */
import { copyFile, readFile, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { addMcpServer, addStrataHooks, removeMcpServer, removeStrataHooks, type HookEvent, type McpServerEntry } from './settings.js';

export type InstallScope = 'project' | 'user';

export interface ClaudeCodeTargets {
  /** Where the hooks go. */
  settingsPath: string;
  /** Where the MCP server goes (`.mcp.json` for project scope, `.claude.json` for user scope). */
  mcpPath: string;
}

/**
 * Project: `<dir>/.claude/settings.json` and `<dir>/.mcp.json`. User: `~/.claude/settings.json` and
 * `~/.claude.json`; with CLAUDE_CONFIG_DIR both live in that folder (Claude Code keeps `.claude.json`
 * there when the variable is set).
 */
export function claudeCodeTargets(options: { scope: InstallScope; projectDir: string; env: NodeJS.ProcessEnv }): ClaudeCodeTargets {
  if (options.scope === 'project') {
    return { settingsPath: join(options.projectDir, '.claude', 'settings.json'), mcpPath: join(options.projectDir, '.mcp.json') };
  }
  const configDir = options.env.CLAUDE_CONFIG_DIR?.trim();
  const home = options.env.HOME?.trim() || homedir();
  if (configDir) return { settingsPath: join(configDir, 'settings.json'), mcpPath: join(configDir, '.claude.json') };
  return { settingsPath: join(home, '.claude', 'settings.json'), mcpPath: join(home, '.claude.json') };
}

/** How the host starts Strata: `<node> <bin/strata.js or hook entry> [--home h] [--agent a]` (absolute paths). */
export interface Launcher {
  command: string;
  args: string[];
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_/.,:=@+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(launcher: Launcher, event: HookEvent): string {
  return [launcher.command, ...launcher.args, 'hook', event].map(shellQuote).join(' ');
}

export function mcpEntry(launcher: Launcher): McpServerEntry {
  return { type: 'stdio', command: launcher.command, args: [...launcher.args, 'mcp'] };
}

export interface FileChange {
  path: string;
  action: 'create' | 'update' | 'delete' | 'unchanged';
  backup?: string;
  /** The new content (also shown by --dry-run); undefined when deleted. */
  content?: string;
}

type Json = Record<string, unknown>;

async function readJson(path: string): Promise<Json | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch (cause) {
    throw new ConfigError({ file: path, message: `${path} is not valid JSON (${(cause as Error).message}); fix it by hand, then run the command again.`, cause });
  }
  throw new ConfigError({ file: path, message: `${path} does not hold a JSON object; fix it by hand, then run the command again.` });
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

/** Computes (and unless dryRun, applies) one file's edit. `deleteIfEmpty`: remove a file left `{}`. */
async function editFile(options: { path: string; edit: (json: Json) => Json; dryRun: boolean; now: Date; deleteIfEmpty: boolean }): Promise<FileChange> {
  const { path } = options;
  const before = await readJson(path);
  let after: Json;
  try {
    after = options.edit(before ?? {});
  } catch (cause) {
    throw new ConfigError({ file: path, message: `${path}: ${(cause as Error).message}`, cause });
  }
  const remove = options.deleteIfEmpty && Object.keys(after).length === 0;
  if (before === undefined && remove) return { path, action: 'unchanged' };
  if (before !== undefined && JSON.stringify(before) === JSON.stringify(after)) return { path, action: 'unchanged' };
  const content = remove ? undefined : JSON.stringify(after, null, 2) + '\n';
  const change: FileChange = { path, action: before === undefined ? 'create' : remove ? 'delete' : 'update', content };
  if (before !== undefined) change.backup = `${path}.strata-backup-${stamp(options.now)}`;
  if (options.dryRun) return change;
  if (change.backup) await copyFile(path, change.backup);
  if (content === undefined) await unlink(path);
  else await writeFileAtomic({ path, data: content });
  return change;
}

export interface InstallOptions {
  scope: InstallScope;
  projectDir: string;
  /** Starts the full CLI (the MCP server; hooks too unless `hookLauncher` is given). */
  launcher: Launcher;
  /** Starts the fast hook entry (dist/hosts/claude-code/hook-entry.js). */
  hookLauncher?: Launcher;
  env?: NodeJS.ProcessEnv;
  dryRun?: boolean;
  now?: Date;
}

export async function installClaudeCode(options: InstallOptions): Promise<FileChange[]> {
  const targets = claudeCodeTargets({ scope: options.scope, projectDir: options.projectDir, env: options.env ?? process.env });
  const common = { dryRun: options.dryRun ?? false, now: options.now ?? new Date() };
  return [
    await editFile({ ...common, path: targets.settingsPath, deleteIfEmpty: false, edit: (settings) => addStrataHooks({ settings, commandFor: (e) => hookCommand(options.hookLauncher ?? options.launcher, e) }) }),
    await editFile({ ...common, path: targets.mcpPath, deleteIfEmpty: false, edit: (config) => addMcpServer({ config, entry: mcpEntry(options.launcher) }) }),
  ];
}

export async function uninstallClaudeCode(options: Omit<InstallOptions, 'launcher'>): Promise<FileChange[]> {
  const targets = claudeCodeTargets({ scope: options.scope, projectDir: options.projectDir, env: options.env ?? process.env });
  const common = { dryRun: options.dryRun ?? false, now: options.now ?? new Date() };
  return [
    await editFile({ ...common, path: targets.settingsPath, deleteIfEmpty: true, edit: removeStrataHooks }),
    // `.claude.json` holds all of Claude Code's state: never delete it, even if it ends up empty.
    await editFile({ ...common, path: targets.mcpPath, deleteIfEmpty: options.scope === 'project', edit: removeMcpServer }),
  ];
}
