/**
 * `strata install openclaw`: merges Strata into OpenClaw's config (JSON5): the memory slot, the
 * plugin's load path, its entry with the hook permissions a non-bundled memory plugin needs
 * (`allowConversationAccess` for agent_end, `allowPromptInjection` for prependContext), and the
 * allowlist when one is in use. Idempotent: a config that already has all of it is not rewritten.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import JSON5 from 'json5';
import { ConfigError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { PLUGIN_ID } from './config.js';

type Json = Record<string, unknown>;

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

function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** The config with Strata installed; keys already present keep their order and values. */
export function mergeOpenClawConfig(options: { config: Json; pluginPath: string; home?: string }): Json {
  const plugins = obj(options.config.plugins);
  const load = obj(plugins.load);
  const paths = Array.isArray(load.paths) ? (load.paths as unknown[]) : [];
  const entries = obj(plugins.entries);
  const entry = obj(entries[PLUGIN_ID]);
  return {
    ...options.config,
    plugins: {
      ...plugins,
      ...(Array.isArray(plugins.allow) ? { allow: plugins.allow.includes(PLUGIN_ID) ? plugins.allow : [...plugins.allow, PLUGIN_ID] } : {}),
      slots: { ...obj(plugins.slots), memory: PLUGIN_ID },
      load: { ...load, paths: paths.includes(options.pluginPath) ? paths : [...paths, options.pluginPath] },
      entries: {
        ...entries,
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
    throw new ConfigError({ file: path, cause: error, message: `${path} is not valid JSON5 (${(error as Error).message}); fix it (or move it away) and run the install again.` });
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
  if (text !== undefined) {
    // The rewrite is plain JSON (comments are not kept), so the original is kept next to it.
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    result.backup = `${options.configPath}.strata-backup-${stamp}`;
    await copyFile(options.configPath, result.backup);
  }
  await writeFileAtomic({ path: options.configPath, data: content, mode: 0o600 });
  result.applied = true;
  return result;
}
