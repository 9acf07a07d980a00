/**
 * What identifies the code a resident runs: the package version and the entry file (path, size,
 * mtime). A client whose stamp differs (after `npm update`, a rebuild, another checkout) asks the
 * running resident to leave and starts its own. Node built-ins only (hook processes compute it).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `dist/resident/main.js` next to a built caller, `src/resident/main.ts` under tsx. */
export function residentEntry(): string {
  const self = fileURLToPath(import.meta.url);
  return join(dirname(self), `main${extname(self)}`);
}

function packageVersion(entry: string): string {
  // <root>/{dist,src}/resident/main.* -> <root>/package.json
  const manifest = join(dirname(entry), '..', '..', 'package.json');
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

export function residentStamp(entry: string = residentEntry()): string {
  const s = existsSync(entry) ? statSync(entry) : undefined;
  return [packageVersion(entry), entry, s ? Math.round(s.mtimeMs) : 0, s?.size ?? 0].join(':');
}

/**
 * `node [--import tsx] <entry> --home <home> --stamp <stamp>`: TypeScript sources (a checkout
 * without a build) need tsx, which a programmatic `register()` does not pass on in execArgv.
 */
export function residentCommand(options: { home: string; stamp: string; entry?: string }): { command: string; args: string[] } {
  const entry = options.entry ?? residentEntry();
  const execArgv = [...process.execArgv];
  if (entry.endsWith('.ts') && !execArgv.some((a) => a.includes('tsx'))) execArgv.push('--import', 'tsx');
  return { command: process.execPath, args: [...execArgv, entry, '--home', options.home, '--stamp', options.stamp] };
}
