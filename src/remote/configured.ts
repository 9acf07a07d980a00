/**
 * Whether remote mode may apply, decided cheaply: `STRATA_URL`, or a `remote.url` in the home's
 * config.json. Node built-ins only, so a Claude Code hook process (which loads nothing else on a
 * warm local call) can check it on every call; the full resolution is `resolveRemote`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const URL_ENV = 'STRATA_URL';
export const REMOTE_TOKEN_ENV = 'STRATA_TOKEN';

/** True when `STRATA_URL` is set or `<home>/config.json` names `remote.url`. A missing or unreadable file says no. */
export function remoteConfigured(options: { home: string; env: NodeJS.ProcessEnv }): boolean {
  if (options.env[URL_ENV]?.trim()) return true;
  let text: string;
  try {
    text = readFileSync(join(options.home, 'config.json'), 'utf8');
  } catch {
    return false;
  }
  // An invalid file is reported by the full loader on the local path, with its line and column.
  try {
    const remote = (JSON.parse(text.replace(/^\uFEFF/, '')) as { remote?: { url?: unknown } } | null)?.remote;
    return typeof remote?.url === 'string' && remote.url.trim() !== '';
  } catch {
    return false;
  }
}
