/**
 * Resolves the Strata home and loads `<home>/config.json`. Precedence, lowest to highest:
 * defaults < config.json < environment variables < the `overrides` object. Each layer is
 * validated on its own, so an error names where the bad value came from (file, env var, code).
 *
 * Environment variables (an empty value counts as unset):
 *   STRATA_HOME                  home directory (default ~/.strata), see resolveHome
 *   STRATA_EMBEDDER              embedder.provider: local | openai | none
 *   STRATA_EMBEDDER_MODEL        embedder.model
 *   STRATA_EMBEDDER_BASE_URL     embedder.baseURL
 *   STRATA_EMBEDDER_API_KEY_ENV  embedder.apiKeyEnv (the NAME of the variable holding the key)
 *   STRATA_EMBEDDER_DIMENSIONS   embedder.dimensions
 *   STRATA_EMBEDDER_TASK_HINTS   embedder.taskHints: none | jina | e5 | nomic | prefix
 *   STRATA_STORE_PATH            store.path
 *   STRATA_RERANK_PROVIDER       rerank.provider: none | jina | cohere | voyage | tei | siliconflow | generic
 *   STRATA_RERANK_MODEL          rerank.model
 *   STRATA_RERANK_BASE_URL       rerank.baseURL
 *   STRATA_RERANK_API_KEY_ENV    rerank.apiKeyEnv
 *   STRATA_RECALL_LIMIT          recall.defaultLimit
 *   STRATA_RECALL_MIN_SCORE      recall.minScore
 *   STRATA_REDACT_SECRETS        write.redactSecrets: true | false (also 1/0, yes/no, on/off)
 *   STRATA_MAX_CHARS             write.maxChars
 *   STRATA_DEFAULT_AGENT         scopes.defaultAgent
 *   STRATA_AGENT_ID              scopes.defaultAgent, winning over STRATA_DEFAULT_AGENT: the identity a
 *                                process was started with (hosts: --agent > this > config; src/core/caller.ts)
 *   STRATA_LOCK_TIMEOUT_MS       lock.timeoutMs
 *   STRATA_LOCK_STALE_MS         lock.staleMs
 *   STRATA_LLM_PROVIDER          llm.provider: none | openai | anthropic | claude-code
 *   STRATA_LLM_BASE_URL          llm.baseURL
 *   STRATA_LLM_MODEL             llm.model
 *   STRATA_LLM_API_KEY_ENV       llm.apiKeyEnv
 * Nothing else in Strata reads configuration from the environment (API keys are read by name,
 * from the variable the config names).
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, StorageError, StrataError } from '../errors/index.js';
import { describeFsError, writeFileAtomic } from '../util/atomic-write.js';
import { DEFAULT_CONFIG_FILE, strataConfigSchema, type StrataConfig, type StrataConfigInput } from './schema.js';
import { withConversationsDefault } from './providers.js';
import { assertNoSecretKeys, describeIssues, locateInJson, parseJsonFile } from './diagnostics.js';

export const CONFIG_FILE_NAME = 'config.json';

/** Settings given in code; deep-merged over the file and the environment. */
export type StrataConfigOverrides = StrataConfigInput;

/** The loaded configuration; file-based providers' `path` is always set and absolute. */
export type ResolvedStrataConfig = StrataConfig;

export interface LoadedConfig {
  config: ResolvedStrataConfig;
  /** Absolute home directory. */
  home: string;
  /** Absolute path of config.json (whether or not it exists). */
  configPath: string;
  /** Whether config.json existed; false means file defaults were used. */
  fromFile: boolean;
  /**
   * Whether the user named `llm.provider` (config.json or STRATA_LLM_PROVIDER), `none` included:
   * a host may pick an LLM for the user (Claude Code's own CLI) only when this is false.
   */
  llmProviderSet: boolean;
}

type Env = Record<string, string | undefined>;

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2));
  return path;
}

/** `--home` value, else `$STRATA_HOME`, else `~/.strata`; always absolute. */
export function resolveHome(options: { home?: string; env?: Env } = {}): string {
  const env = options.env ?? process.env;
  const chosen = options.home?.trim() || env.STRATA_HOME?.trim() || join(homedir(), '.strata');
  return resolve(expandHome(chosen));
}

export function configPathFor(home: string): string {
  return join(home, CONFIG_FILE_NAME);
}

type EnvKind = 'string' | 'provider' | 'number' | 'boolean' | 'dimensions';
const ENV_OVERRIDES: ReadonlyArray<{ name: string; path: [string, string]; kind: EnvKind }> = [
  { name: 'STRATA_EMBEDDER', path: ['embedder', 'provider'], kind: 'provider' },
  { name: 'STRATA_EMBEDDER_MODEL', path: ['embedder', 'model'], kind: 'string' },
  { name: 'STRATA_EMBEDDER_BASE_URL', path: ['embedder', 'baseURL'], kind: 'string' },
  { name: 'STRATA_EMBEDDER_API_KEY_ENV', path: ['embedder', 'apiKeyEnv'], kind: 'string' },
  { name: 'STRATA_EMBEDDER_DIMENSIONS', path: ['embedder', 'dimensions'], kind: 'dimensions' },
  { name: 'STRATA_EMBEDDER_TASK_HINTS', path: ['embedder', 'taskHints'], kind: 'string' },
  { name: 'STRATA_STORE_PATH', path: ['store', 'path'], kind: 'string' },
  { name: 'STRATA_RERANK_PROVIDER', path: ['rerank', 'provider'], kind: 'provider' },
  { name: 'STRATA_RERANK_MODEL', path: ['rerank', 'model'], kind: 'string' },
  { name: 'STRATA_RERANK_BASE_URL', path: ['rerank', 'baseURL'], kind: 'string' },
  { name: 'STRATA_RERANK_API_KEY_ENV', path: ['rerank', 'apiKeyEnv'], kind: 'string' },
  { name: 'STRATA_RECALL_LIMIT', path: ['recall', 'defaultLimit'], kind: 'number' },
  { name: 'STRATA_RECALL_MIN_SCORE', path: ['recall', 'minScore'], kind: 'number' },
  { name: 'STRATA_REDACT_SECRETS', path: ['write', 'redactSecrets'], kind: 'boolean' },
  { name: 'STRATA_MAX_CHARS', path: ['write', 'maxChars'], kind: 'number' },
  { name: 'STRATA_DEFAULT_AGENT', path: ['scopes', 'defaultAgent'], kind: 'string' },
  // After STRATA_DEFAULT_AGENT on purpose: later entries win.
  { name: 'STRATA_AGENT_ID', path: ['scopes', 'defaultAgent'], kind: 'string' },
  { name: 'STRATA_LOCK_TIMEOUT_MS', path: ['lock', 'timeoutMs'], kind: 'number' },
  { name: 'STRATA_LOCK_STALE_MS', path: ['lock', 'staleMs'], kind: 'number' },
  { name: 'STRATA_LLM_PROVIDER', path: ['llm', 'provider'], kind: 'provider' },
  { name: 'STRATA_LLM_BASE_URL', path: ['llm', 'baseURL'], kind: 'string' },
  { name: 'STRATA_LLM_MODEL', path: ['llm', 'model'], kind: 'string' },
  { name: 'STRATA_LLM_API_KEY_ENV', path: ['llm', 'apiKeyEnv'], kind: 'string' },
];

/** Converts an env string to the field's type; unconvertible text is kept so validation names it. */
function envValue(raw: string, kind: EnvKind): unknown {
  const text = kind === 'provider' ? raw.trim().toLowerCase() : raw.trim();
  if ((kind === 'number' || kind === 'dimensions') && /^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (kind === 'boolean') {
    if (/^(?:true|1|yes|on)$/i.test(text)) return true;
    if (/^(?:false|0|no|off)$/i.test(text)) return false;
  }
  return text;
}

/** The env layer as a partial config, plus which variable set which field. */
export function configFromEnv(env: Env): { layer: Record<string, Record<string, unknown>>; sources: Map<string, string> } {
  const layer: Record<string, Record<string, unknown>> = {};
  const sources = new Map<string, string>();
  for (const { name, path, kind } of ENV_OVERRIDES) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    (layer[path[0]] ??= {})[path[1]] = envValue(raw, kind);
    sources.set(path.join('.'), name);
  }
  return { layer, sources };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; arrays and scalars replace; `undefined` leaves the base value. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = deepMerge(base[key], value);
  return out;
}

async function readConfigFile(configPath: string): Promise<string | undefined> {
  try {
    return await readFile(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // no file (or no home yet): defaults
    throw new ConfigError({
      unreadable: true,
      file: configPath,
      cause: error,
      message: `Cannot read ${configPath}: ${describeFsError(error)}. Fix the path or choose another home with --home or STRATA_HOME.`,
    });
  }
}

export interface LoadConfigOptions {
  /** Home directory; default `$STRATA_HOME`, else `~/.strata`. */
  home?: string;
  /** Highest-precedence settings from code, deep-merged and validated like the file. */
  overrides?: StrataConfigOverrides;
  env?: Env;
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const home = resolveHome({ home: options.home, env });
  const configPath = configPathFor(home);
  const text = await readConfigFile(configPath);
  const fileLayer = text === undefined ? {} : parseJsonFile({ text, file: configPath });

  // `where` says where a bad value came from; `file` is set only when it came from the file.
  const validate = (raw: unknown, where: (path: readonly PropertyKey[]) => string, file?: string): StrataConfig => {
    assertNoSecretKeys({ raw, where, file });
    const parsed = strataConfigSchema.safeParse(withConversationsDefault(raw));
    if (parsed.success) return parsed.data;
    const { field, message } = describeIssues({ issues: parsed.error.issues, where });
    throw new ConfigError({ message, field, file, cause: parsed.error });
  };

  let config = validate(fileLayer, (path) => `${configPath}${locate(text, path)}: ${dotted(path)}`, configPath);
  const { layer: envLayer, sources } = configFromEnv(env);
  const withEnv = deepMerge(fileLayer, envLayer);
  if (sources.size > 0) {
    config = validate(withEnv, (path) => {
      const field = dotted(path);
      const variable = [...sources].find(([f]) => field === f || field.startsWith(`${f}.`))?.[1];
      return variable ? `environment variable ${variable} (${field})` : `${configPath}: ${field}`;
    });
  }
  if (options.overrides !== undefined) {
    config = validate(deepMerge(withEnv, options.overrides), (path) => `overrides.${dotted(path)}`);
  }
  const at = (path: string | undefined, fallback: string) => (path === undefined ? fallback : resolve(home, expandHome(path)));
  const store = config.store.provider === 'lancedb' ? { ...config.store, path: at(config.store.path, join(home, 'store')) } : config.store;
  const conversations =
    config.conversations.provider === 'lancedb'
      ? { ...config.conversations, path: at(config.conversations.path, join(home, 'conversations', 'index')) }
      : config.conversations;
  const fileLlm = (fileLayer as { llm?: { provider?: unknown } }).llm;
  const llmProviderSet = sources.has('llm.provider') || (isPlainObject(fileLlm) && fileLlm.provider !== undefined);
  return { config: { ...config, store, conversations }, home, configPath, fromFile: text !== undefined, llmProviderSet };
}

function dotted(path: readonly PropertyKey[]): string {
  return path.map(String).join('.') || '(root)';
}

/** `:line:column` of a field in the file text, when it can be found. */
function locate(text: string | undefined, path: readonly PropertyKey[]): string {
  return text === undefined ? '' : locateInJson({ text, path });
}

/** Writes the default config.json for `strata init`; an existing file is kept unless `force`. */
export async function writeDefaultConfig(
  options: { home?: string; force?: boolean; env?: Env } = {},
): Promise<{ written: boolean; path: string }> {
  const home = resolveHome({ home: options.home, env: options.env });
  const path = configPathFor(home);
  const data = `${JSON.stringify(DEFAULT_CONFIG_FILE, null, 2)}\n`;
  try {
    const { written } = await writeFileAtomic({ path, data, overwrite: options.force === true });
    return { written, path };
  } catch (error) {
    if (!StrataError.isInstance(error)) throw error;
    throw new StorageError({
      message: `${error.message} Strata keeps its config and store in ${home}: choose a writable home with --home or STRATA_HOME.`,
      cause: error,
      details: error.details,
    });
  }
}
