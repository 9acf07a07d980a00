/**
 * Whether a host runs remote, and against what: `--url` (or a host's own explicit setting) >
 * `STRATA_URL` > config `remote.url`. The token only ever comes from the environment: the variable
 * config `remote.tokenEnv` names (default `STRATA_TOKEN`), whatever supplied the URL. Every host
 * (CLI, MCP, Claude Code hooks, OpenClaw) resolves through `resolveRemote`, so the rules are one.
 */
import type { StrataConfigOverrides } from '../config/load.js';
import { ConfigError } from '../errors/index.js';
import { normalizeServiceUrl, RemoteOperations, type RemoteOptions } from './client.js';
import { REMOTE_TOKEN_ENV, URL_ENV } from './configured.js';

export { REMOTE_TOKEN_ENV, URL_ENV };

export interface RemoteConfigSection {
  url?: string;
  tokenEnv: string;
  timeoutMs: number;
}

/** The remote service to use, or null for a local engine (a loaded config's `remote` section decides the token). */
export function remoteSettings(options: {
  url?: string;
  env?: NodeJS.ProcessEnv;
  config?: { remote?: RemoteConfigSection };
}): RemoteOptions | null {
  const env = options.env ?? process.env;
  const raw = options.url?.trim() || env[URL_ENV]?.trim() || options.config?.remote?.url;
  if (!raw) return null;
  const tokenEnv = options.config?.remote?.tokenEnv ?? REMOTE_TOKEN_ENV;
  const token = env[tokenEnv]?.trim() || undefined;
  if (tokenEnv !== REMOTE_TOKEN_ENV && !token && env[REMOTE_TOKEN_ENV])
    throw new ConfigError({
      field: 'remote.tokenEnv',
      message: `remote.tokenEnv names ${tokenEnv}, which is not set (${REMOTE_TOKEN_ENV} is, but the config asks for ${tokenEnv}).`,
    });
  return { url: normalizeServiceUrl(raw), token, tokenEnv, timeoutMs: options.config?.remote?.timeoutMs };
}

export interface ResolveRemoteOptions {
  /** An explicit URL (`--url`, a host's own setting); wins over `STRATA_URL` and the config. */
  url?: string;
  /** The Strata home whose config.json holds `remote` (default `$STRATA_HOME`, else ~/.strata). */
  home?: string;
  /** Settings from code over the file and env (a host's config block), as `Strata.open` takes them. */
  overrides?: StrataConfigOverrides;
  env?: NodeJS.ProcessEnv;
}

/**
 * The remote settings a host must use, or null: the home's config is always loaded, so
 * `remote.tokenEnv` (and `timeoutMs`) apply whether the URL came from a flag, `STRATA_URL` or the
 * config. Loading the config reads one file and creates nothing.
 */
export async function resolveRemote(options: ResolveRemoteOptions = {}): Promise<RemoteOptions | null> {
  const env = options.env ?? process.env;
  const { loadConfig } = await import('../config/load.js');
  const loaded = await loadConfig({ home: options.home, overrides: options.overrides, env });
  return remoteSettings({ url: options.url, env, config: loaded.config });
}

/** Connects to the service when remote settings apply; null otherwise. */
export async function connectRemote(options: ResolveRemoteOptions = {}): Promise<RemoteOperations | null> {
  const settings = await resolveRemote(options);
  return settings ? RemoteOperations.connect(settings) : null;
}
