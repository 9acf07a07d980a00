/**
 * Whether a host runs remote, and against what: `--url` > `STRATA_URL` > config `remote.url`. The
 * token only ever comes from the environment: `STRATA_TOKEN`, or the variable `remote.tokenEnv` names.
 */
import { ConfigError } from '../errors/index.js';
import { normalizeServiceUrl, RemoteOperations, type RemoteOptions } from './client.js';

export const URL_ENV = 'STRATA_URL';
export const REMOTE_TOKEN_ENV = 'STRATA_TOKEN';

export interface RemoteConfigSection {
  url?: string;
  tokenEnv: string;
  timeoutMs: number;
}

/** The remote service to use, or null for a local engine. */
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
  if (options.config?.remote?.tokenEnv && options.config.remote.tokenEnv !== REMOTE_TOKEN_ENV && !token && env[REMOTE_TOKEN_ENV])
    throw new ConfigError({
      field: 'remote.tokenEnv',
      message: `remote.tokenEnv names ${tokenEnv}, which is not set (${REMOTE_TOKEN_ENV} is, but the config asks for ${tokenEnv}).`,
    });
  return { url: normalizeServiceUrl(raw), token, timeoutMs: options.config?.remote?.timeoutMs };
}

/** Connects to the service when remote settings apply; null otherwise. */
export async function connectRemote(options: Parameters<typeof remoteSettings>[0]): Promise<RemoteOperations | null> {
  const settings = remoteSettings(options);
  return settings ? RemoteOperations.connect(settings) : null;
}
