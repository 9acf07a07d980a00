/**
 * `strata install openclaw`: merges Strata into OpenClaw's config (JSON5): the memory slot, the
 * plugin's load path, its entry with the hook permissions a non-bundled memory plugin needs
 * (`allowConversationAccess` for agent_end, `allowPromptInjection` for prependContext), and the
 * allowlist when one is in use. Idempotent: a config that already has all of it is not rewritten.
 * What it changed is recorded next to the config, so `strata uninstall openclaw` (uninstallOpenClaw)
 * can restore exactly the previous values (install-record.ts).
 */
import { copyFile, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { ConfigError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { PLUGIN_ID } from './config.js';
import {
  diffInstall,
  fallbackRecord,
  obj,
  readInstallRecord,
  removeInstallRecord,
  reverseInstall,
  writeInstallRecord,
  type Json,
} from './install-record.js';

export interface OpenClawInstallOptions {
  /** openclaw.json; see `defaultOpenClawConfigPath`. */
  configPath: string;
  /** Absolute path of the plugin folder (the one holding openclaw.plugin.json). */
  pluginPath: string;
  /** Strata home written into the plugin config (omitted: the plugin's default). */
  home?: string;
  /** Write the file (after a backup); otherwise only compute it. */
  apply?: boolean;
  now?: Date;
}

export interface OpenClawInstallResult {
  configPath: string;
  action: 'create' | 'update' | 'unchanged';
  applied: boolean;
  backup?: string;
  /** The memory plugin that owned the slot before, when it was another one. */
  previousMemoryPlugin?: string;
  config: Json;
  /** The file content written (or that would be written). */
  content: string;
}

export function defaultOpenClawConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPENCLAW_CONFIG_PATH) return resolve(env.OPENCLAW_CONFIG_PATH);
  return join(env.OPENCLAW_STATE_DIR ? resolve(env.OPENCLAW_STATE_DIR) : join(homedir(), '.openclaw'), 'openclaw.json');
}

/**
 * OpenClaw keeps its bundled memory-core loaded beside the memory slot owner (as a "dreaming
 * sidecar", on by default), and a loaded memory-core offers the model its own `memory_search` and
 * `memory_get` next to Strata's tools. Install turns memory-core off, unless the user set its
 * `enabled` either way; uninstall puts it back.
 */
export const MEMORY_CORE_ENABLED: string[] = ['plugins', 'entries', 'memory-core', 'enabled'];

/** The config with Strata installed; keys already present keep their order and values. */
export function mergeOpenClawConfig(options: { config: Json; pluginPath: string; home?: string }): Json {
  const plugins = obj(options.config.plugins);
  const load = obj(plugins.load);
  const paths = Array.isArray(load.paths) ? (load.paths as unknown[]) : [];
  const entries = obj(plugins.entries);
  const entry = obj(entries[PLUGIN_ID]);
  const core = obj(entries['memory-core']);
  const sidecar = core.enabled === undefined ? { 'memory-core': { ...core, enabled: false } } : {};
  return {
    ...options.config,
    plugins: {
      ...plugins,
      ...(Array.isArray(plugins.allow) ? { allow: plugins.allow.includes(PLUGIN_ID) ? plugins.allow : [...plugins.allow, PLUGIN_ID] } : {}),
      slots: { ...obj(plugins.slots), memory: PLUGIN_ID },
      load: { ...load, paths: paths.includes(options.pluginPath) ? paths : [...paths, options.pluginPath] },
      entries: {
        ...entries,
        ...sidecar,
        [PLUGIN_ID]: {
          ...entry,
          enabled: true,
          config: { ...obj(entry.config), ...(options.home ? { home: options.home } : {}) },
          hooks: { ...obj(entry.hooks), allowConversationAccess: true, allowPromptInjection: true },
        },
      },
    },
  };
}

async function readConfig(path: string): Promise<{ text: string | undefined; config: Json }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: undefined, config: {} };
    throw new ConfigError({ file: path, unreadable: true, cause: error, message: `Cannot read ${path}: ${(error as Error).message}.` });
  }
  try {
    const parsed: unknown = text.trim() ? JSON5.parse(text) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the top level is not an object');
    return { text, config: parsed as Json };
  } catch (error) {
    throw new ConfigError({
      file: path,
      cause: error,
      message: `${path} is not valid JSON5 (${(error as Error).message}); fix it (or move it away) and run the install again.`,
    });
  }
}

export async function installOpenClaw(options: OpenClawInstallOptions): Promise<OpenClawInstallResult> {
  const { text, config } = await readConfig(options.configPath);
  const merged = mergeOpenClawConfig({ config, pluginPath: options.pluginPath, home: options.home });
  const content = JSON.stringify(merged, null, 2) + '\n';
  const previous = obj(obj(config.plugins).slots).memory;
  const result: OpenClawInstallResult = {
    configPath: options.configPath,
    action: text === undefined ? 'create' : JSON.stringify(merged) === JSON.stringify(config) ? 'unchanged' : 'update',
    applied: false,
    ...(typeof previous === 'string' && previous !== PLUGIN_ID ? { previousMemoryPlugin: previous } : {}),
    config: merged,
    content,
  };
  if (!options.apply || result.action === 'unchanged') return result;
  const record = diffInstall({
    before: config,
    after: merged,
    pluginPath: options.pluginPath,
    home: options.home,
    previous: await readInstallRecord(options.configPath),
  });
  result.backup = await backupConfig(options.configPath, text, options.now);
  await writeFileAtomic({ path: options.configPath, data: content, mode: 0o600 });
  await writeInstallRecord(options.configPath, record);
  result.applied = true;
  return result;
}

/** The rewrite is plain JSON (comments are not kept), so the original is kept next to it. */
async function backupConfig(configPath: string, text: string | undefined, now: Date | undefined): Promise<string | undefined> {
  if (text === undefined) return undefined;
  const stamp = (now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const backup = `${configPath}.strata-backup-${stamp}`;
  await copyFile(configPath, backup);
  return backup;
}

export interface OpenClawUninstallOptions {
  configPath: string;
  /** The plugin folder install added (used only when no install record exists). */
  pluginPath: string;
  /** Write the file (after a backup); otherwise only compute it. */
  apply?: boolean;
  now?: Date;
}

export interface OpenClawUninstallResult {
  configPath: string;
  action: 'update' | 'unchanged';
  applied: boolean;
  backup?: string;
  /** Whether the install record was found (exact reversal) or recognisable entries were removed. */
  basis: 'record' | 'recognised';
  /** The memory plugin that holds the slot again, when one did before install. */
  restoredMemoryPlugin?: string;
  config: Json;
  content: string;
}

/**
 * Reverses `installOpenClaw`: slot, allowlist item, load path and the entry's hook permissions
 * (the entry itself when install created it) go back to what they were; everything else is left
 * as it is. Idempotent; a config without Strata in it is not touched.
 */
export async function uninstallOpenClaw(options: OpenClawUninstallOptions): Promise<OpenClawUninstallResult> {
  const { text, config } = await readConfig(options.configPath);
  const saved = await readInstallRecord(options.configPath);
  const record = saved ?? fallbackRecord({ config, pluginPath: options.pluginPath });
  const reverted = reverseInstall({ config, record, removeEntry: saved === undefined });
  const changed = text !== undefined && JSON.stringify(reverted) !== JSON.stringify(config);
  const slot = obj(obj(reverted.plugins).slots).memory;
  const result: OpenClawUninstallResult = {
    configPath: options.configPath,
    action: changed ? 'update' : 'unchanged',
    applied: false,
    basis: saved ? 'record' : 'recognised',
    ...(changed && typeof slot === 'string' && slot !== obj(obj(config.plugins).slots).memory ? { restoredMemoryPlugin: slot } : {}),
    config: reverted,
    content: JSON.stringify(reverted, null, 2) + '\n',
  };
  if (!options.apply) return result;
  if (changed) {
    result.backup = await backupConfig(options.configPath, text, options.now);
    await writeFileAtomic({ path: options.configPath, data: result.content, mode: 0o600 });
    result.applied = true;
  }
  // Reversed (or nothing left to reverse): the record has served its purpose.
  await removeInstallRecord(options.configPath);
  return result;
}
