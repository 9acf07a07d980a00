#!/usr/bin/env node
// Thin launcher: keeps LanceDB's native warnings out of CLI output, then runs the compiled CLI,
// or the TypeScript sources through tsx when no build exists (a fresh clone after `npm ci`).
// `hook` (Claude Code's hooks, on every prompt) goes straight to the small hook entry: loading the
// whole CLI would cost more than the hook's own work.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

process.env.LANCEDB_LOG ??= 'error';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The first argument that is not a global option (or its value). */
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--home' || arg === '--agent' || arg === '--scope') i++;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

const built = existsSync(join(root, 'dist', 'cli', 'main.js'));
const entry = commandOf(process.argv.slice(2)) === 'hook' ? ['hosts', 'claude-code', 'hook-entry'] : ['cli', 'main'];
if (built) {
  await import(pathToFileURL(join(root, 'dist', ...entry) + '.js').href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', ...entry) + '.ts').href);
}
