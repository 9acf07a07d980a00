import { ConfigError } from '../errors/index.js';

/**
 * Settings resolution in the spirit of vercel/ai `loadApiKey`: an explicit parameter wins, then
 * the environment variable; a missing required value fails with a message naming both.
 */
function readEnv(envVar: string, env: NodeJS.ProcessEnv): string | undefined {
  const value = env[envVar];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function loadApiKey(options: {
  apiKey?: string;
  envVar: string;
  /** Who needs the key, e.g. "Jina reranker"; used in the error message. */
  description: string;
  /** Setting name shown in the error message. Default `apiKey`. */
  settingName?: string;
  env?: NodeJS.ProcessEnv;
}): string {
  if (options.apiKey !== undefined) {
    if (options.apiKey.trim() === '') {
      throw new ConfigError({
        field: options.settingName ?? 'apiKey',
        message: `${options.description} API key is empty. Pass a non-empty key or set the ${options.envVar} environment variable.`,
      });
    }
    return options.apiKey;
  }
  const fromEnv = readEnv(options.envVar, options.env ?? process.env);
  if (fromEnv === undefined) {
    throw new ConfigError({
      field: options.settingName ?? 'apiKey',
      message: `${options.description} API key is missing. Set the ${options.envVar} environment variable, or pass it with the '${options.settingName ?? 'apiKey'}' setting.`,
    });
  }
  return fromEnv;
}

/** Parameter first, then the environment variable (when named), else undefined. */
export function loadOptionalSetting(options: { settingValue?: string; envVar?: string; env?: NodeJS.ProcessEnv }): string | undefined {
  if (options.settingValue !== undefined) return options.settingValue;
  if (options.envVar === undefined) return undefined;
  return readEnv(options.envVar, options.env ?? process.env);
}

/** `https://api.x.com/v1/` -> `https://api.x.com/v1`, so paths can be appended with one slash. */
export function withoutTrailingSlash(url: string): string;
export function withoutTrailingSlash(url: string | undefined): string | undefined;
export function withoutTrailingSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '');
}

/** Validates a base URL at construction time, so a typo fails early with the setting named. */
export function validateBaseURL(options: { url: string; setting?: string; description: string }): string {
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch (cause) {
    throw new ConfigError({
      field: options.setting ?? 'baseURL',
      cause,
      message: `${options.description}: ${JSON.stringify(options.url)} is not a valid URL; use e.g. https://api.openai.com/v1 or http://localhost:11434/v1.`,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError({
      field: options.setting ?? 'baseURL',
      message: `${options.description}: ${JSON.stringify(options.url)} must use http or https.`,
    });
  }
  return withoutTrailingSlash(options.url);
}
