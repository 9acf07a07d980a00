/**
 * `strata install|uninstall claude-code`: Strata's hooks and MCP server in Claude Code's files,
 * idempotent (an unchanged file is not rewritten), with every file's mode and formatting kept and
 * backups under the Strata home (install-state.ts).
 *
 * - `--user`: hooks in `~/.claude/settings.json`, the MCP server in `~/.claude.json` (both in
 *   `$CLAUDE_CONFIG_DIR` when set), each pinned to one home and agent.
 * - `--project`: nothing machine-specific in files a team commits. Hooks (and the approval of the
 *   project's MCP server) go to `.claude/settings.local.json`; `.mcp.json` gets an entry that works
 *   on every checkout (`npx -y strata-memory mcp --agent <id>`: the project's dev dependency or a
 *   global install). A home other than `~/.strata` cannot be written there portably, so the MCP
 *   entry then goes to this machine's `~/.claude.json` (Claude Code's "local" scope) instead.
 */
import { unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../../errors/index.js';
import { backupFile, readManifest, sha256, timestamp, writeManifest, type ManifestEntry } from './install-state.js';
import { editedText, readJsonFile, writeJsonText, type Json } from './json-file.js';
import { shellWord, type LaunchPlan } from './launcher.js';
import { OPERATIONS, toolOperations } from '../../core/ops/index.js';
import {
  MCP_SERVER_NAME,
  addAllowed,
  addEnabledMcpjsonServer,
  addMcpServer,
  addStrataHooks,
  removeAllowed,
  removeEnabledMcpjsonServer,
  removeMcpServer,
  removeStrataHooks,
  type HookEvent,
  type McpServerEntry,
} from './settings.js';

export type InstallScope = 'project' | 'user';

/** `--allow-read-tools`: the MCP tools whose operation only reads (as the MCP server annotates them `readOnlyHint`). */
export function readOnlyPermissions(): string[] {
  return toolOperations()
    .filter(({ name }) => OPERATIONS[name].access === 'read')
    .map(({ tool }) => `mcp__${MCP_SERVER_NAME}__${tool.name}`);
}

export interface ClaudeCodeTargets {
  /** Where the hooks go. */
  settingsPath: string;
  /** `.claude.json`: user-scope MCP servers, and per-project ("local") ones. */
  claudeJsonPath: string;
  /** Project scope: the committed `.mcp.json`. */
  mcpJsonPath?: string;
}

function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || homedir();
}

export function claudeCodeTargets(options: { scope: InstallScope; projectDir: string; env: NodeJS.ProcessEnv }): ClaudeCodeTargets {
  const configDir = options.env.CLAUDE_CONFIG_DIR?.trim();
  const claudeJsonPath = configDir ? join(configDir, '.claude.json') : join(userHome(options.env), '.claude.json');
  if (options.scope === 'project') {
    return {
      settingsPath: join(options.projectDir, '.claude', 'settings.local.json'),
      claudeJsonPath,
      mcpJsonPath: join(options.projectDir, '.mcp.json'),
    };
  }
  return {
    settingsPath: configDir ? join(configDir, 'settings.json') : join(userHome(options.env), '.claude', 'settings.json'),
    claudeJsonPath,
  };
}

export interface InstallIdentity {
  /** Absolute Strata home, pinned into every command. */
  home: string;
  agentId: string;
}

export function hookCommand(plan: Pick<LaunchPlan, 'hook'>, identity: InstallIdentity, event: HookEvent): string {
  return [...plan.hook, '--home', identity.home, '--agent', identity.agentId, 'hook', event].map(shellWord).join(' ');
}

export function mcpEntry(plan: Pick<LaunchPlan, 'mcp'>, identity: InstallIdentity): McpServerEntry {
  const [command, ...args] = plan.mcp;
  return { type: 'stdio', command: command!, args: [...args, '--home', identity.home, '--agent', identity.agentId, 'mcp'] };
}

/** The committed `.mcp.json` entry: the same on every machine (home: the default `~/.strata`). */
export function portableMcpEntry(identity: Pick<InstallIdentity, 'agentId'>): McpServerEntry {
  return { type: 'stdio', command: 'npx', args: ['-y', 'strata-memory', 'mcp', '--agent', identity.agentId] };
}

export interface FileChange {
  path: string;
  action: 'create' | 'update' | 'delete' | 'restore' | 'unchanged';
  backup?: string;
  /** The new content (also shown by --dry-run); undefined when deleted. */
  content?: string;
}

interface Common {
  home: string;
  dryRun: boolean;
  stamp: string;
  /** Manifest keys are per scope: a user install and a project's local entry share `~/.claude.json`. */
  scopeKey: string;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Claude Code's per-project ("local") MCP servers: `projects[<dir>].mcpServers` in `.claude.json`. */
function editLocalMcp(config: Json, projectDir: string, edit: (project: Json) => Json): Json {
  const projects = isObject(config.projects) ? config.projects : {};
  const project = edit(isObject(projects[projectDir]) ? (projects[projectDir] as Json) : {});
  return { ...config, projects: { ...projects, [projectDir]: project } };
}

/** Files a person keeps private get 0600 when Strata creates them; `.mcp.json` is a project file. */
function defaultMode(path: string): number {
  return path.endsWith('.mcp.json') ? 0o644 : 0o600;
}

async function applyInstall(
  options: Common & { path: string; edit: (json: Json) => Json; strip: (json: Json) => Json; addedAllow?: string[] },
): Promise<FileChange> {
  const { path } = options;
  const file = await readJsonFile(path);
  const before = file.json ?? {};
  let after: Json;
  try {
    after = options.edit(before);
  } catch (cause) {
    throw new ConfigError({ file: path, message: `${path}: ${(cause as Error).message}`, cause });
  }
  if (file.text !== undefined && JSON.stringify(before) === JSON.stringify(after)) return { path, action: 'unchanged' };
  const content = editedText({ text: file.text, before, after });
  const change: FileChange = { path, action: file.text === undefined ? 'create' : 'update', content };
  if (options.dryRun) return change;

  const manifest = await readManifest(options.home);
  const key = `${options.scopeKey}:${path}`;
  const known = manifest.files[key];
  if (file.text !== undefined) change.backup = await backupFile({ home: options.home, path, stamp: options.stamp });
  // The exact original survives a re-install only while nobody else touched the file.
  const intact = known !== undefined && file.text !== undefined && known.written === sha256(file.text);
  const clean = file.text === undefined || JSON.stringify(options.strip(before)) === JSON.stringify(before);
  const entry: ManifestEntry = intact
    ? { ...known, written: sha256(content) }
    : { existedBefore: file.text !== undefined, ...(clean && change.backup ? { original: change.backup } : {}), written: sha256(content) };
  if (options.addedAllow) entry.addedAllow = [...new Set([...(intact ? (known.addedAllow ?? []) : []), ...options.addedAllow])];
  await writeJsonText({ path, text: content, mode: file.mode ?? defaultMode(path) });
  manifest.files[key] = entry;
  await writeManifest(options.home, manifest);
  return change;
}

async function applyUninstall(
  options: Common & { path: string; strip: (json: Json, entry: ManifestEntry | undefined) => Json; deleteIfEmpty: boolean },
): Promise<FileChange> {
  const { path } = options;
  const file = await readJsonFile(path);
  const manifest = await readManifest(options.home);
  const key = `${options.scopeKey}:${path}`;
  const entry = manifest.files[key];
  if (file.text === undefined) return { path, action: 'unchanged' };
  const before = file.json ?? {};
  const untouched = entry !== undefined && entry.written === sha256(file.text);
  let change: FileChange;
  if (untouched && !entry.existedBefore) {
    change = { path, action: 'delete' };
  } else if (untouched && entry.original) {
    change = { path, action: 'restore', content: await readFile(entry.original, 'utf8') };
  } else {
    const after = options.strip(before, entry);
    if (JSON.stringify(before) === JSON.stringify(after)) return { path, action: 'unchanged' };
    const empty = Object.keys(after).length === 0 && options.deleteIfEmpty;
    change = empty ? { path, action: 'delete' } : { path, action: 'update', content: editedText({ text: file.text, before, after }) };
  }
  if (options.dryRun) return change;
  change.backup = await backupFile({ home: options.home, path, stamp: options.stamp });
  if (change.content === undefined) await unlink(path);
  else await writeJsonText({ path, text: change.content, mode: file.mode ?? defaultMode(path) });
  delete manifest.files[key];
  await writeManifest(options.home, manifest);
  return change;
}

export interface InstallOptions {
  scope: InstallScope;
  projectDir: string;
  identity: InstallIdentity;
  plan: Pick<LaunchPlan, 'hook' | 'mcp'>;
  /** Let Claude Code call Strata's read-only MCP tools without asking (`permissions.allow`). */
  allowReadTools?: boolean;
  env?: NodeJS.ProcessEnv;
  dryRun?: boolean;
  now?: Date;
}

/** Whether `home` is the default `~/.strata` (then a committed `.mcp.json` entry can leave it out). */
export function isDefaultHome(home: string, env: NodeJS.ProcessEnv): boolean {
  return resolve(home) === join(userHome(env), '.strata');
}

function scopeKey(options: { scope: InstallScope; projectDir: string }): string {
  return options.scope === 'user' ? 'user' : `project:${resolve(options.projectDir)}`;
}

export async function installClaudeCode(options: InstallOptions): Promise<FileChange[]> {
  const env = options.env ?? process.env;
  const targets = claudeCodeTargets({ scope: options.scope, projectDir: options.projectDir, env });
  const common: Common = {
    home: options.identity.home,
    dryRun: options.dryRun ?? false,
    stamp: timestamp(options.now ?? new Date()),
    scopeKey: scopeKey(options),
  };
  const allow = options.allowReadTools ? readOnlyPermissions() : [];
  const portable = options.scope === 'project' && isDefaultHome(options.identity.home, env);
  const entry = mcpEntry(options.plan, options.identity);
  const commandFor = (e: HookEvent) => hookCommand(options.plan, options.identity, e);

  const changes: FileChange[] = [];
  changes.push(
    await applyInstall({
      ...common,
      path: targets.settingsPath,
      addedAllow: allow.length > 0 ? allow : undefined,
      edit: (settings) => {
        let out = addStrataHooks({ settings, commandFor });
        if (portable) out = addEnabledMcpjsonServer(out);
        return allow.length > 0 ? addAllowed(out, allow) : out;
      },
      strip: (s) => removeEnabledMcpjsonServer(removeStrataHooks(s)),
    }),
  );
  if (options.scope === 'user') {
    changes.push(
      await applyInstall({
        ...common,
        path: targets.claudeJsonPath,
        edit: (config) => addMcpServer({ config, entry }),
        strip: removeMcpServer,
      }),
    );
  } else if (portable) {
    changes.push(
      await applyInstall({
        ...common,
        path: targets.mcpJsonPath!,
        edit: (config) => addMcpServer({ config, entry: portableMcpEntry(options.identity) }),
        strip: removeMcpServer,
      }),
    );
  } else {
    const dir = resolve(options.projectDir);
    changes.push(
      await applyInstall({
        ...common,
        path: targets.claudeJsonPath,
        edit: (config) => editLocalMcp(config, dir, (project) => addMcpServer({ config: project, entry })),
        strip: (config) =>
          isObject(config.projects) && isObject(config.projects[dir]) ? editLocalMcp(config, dir, removeMcpServer) : config,
      }),
    );
  }
  return changes;
}

export async function uninstallClaudeCode(
  options: Omit<InstallOptions, 'plan' | 'identity' | 'allowReadTools'> & { home: string },
): Promise<FileChange[]> {
  const env = options.env ?? process.env;
  const targets = claudeCodeTargets({ scope: options.scope, projectDir: options.projectDir, env });
  const common: Common = {
    home: options.home,
    dryRun: options.dryRun ?? false,
    stamp: timestamp(options.now ?? new Date()),
    scopeKey: scopeKey(options),
  };
  const dir = resolve(options.projectDir);
  const changes: FileChange[] = [];
  changes.push(
    await applyUninstall({
      ...common,
      path: targets.settingsPath,
      deleteIfEmpty: true,
      // Without a record of what install added, the read-only tool permissions are Strata's by name.
      strip: (s, entry) => removeAllowed(removeEnabledMcpjsonServer(removeStrataHooks(s)), entry?.addedAllow ?? readOnlyPermissions()),
    }),
  );
  if (options.scope === 'project') {
    changes.push(await applyUninstall({ ...common, path: targets.mcpJsonPath!, deleteIfEmpty: true, strip: (c) => removeMcpServer(c) }));
  }
  // `.claude.json` holds all of Claude Code's state: never deleted, only Strata's entries removed.
  const strip =
    options.scope === 'user'
      ? (c: Json) => removeMcpServer(c)
      : (c: Json) => (isObject(c.projects) && isObject(c.projects[dir]) ? editLocalMcp(c, dir, removeMcpServer) : c);
  changes.push(await applyUninstall({ ...common, path: targets.claudeJsonPath, deleteIfEmpty: false, strip }));
  return changes;
}

export { MCP_SERVER_NAME };
