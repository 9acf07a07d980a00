#!/usr/bin/env node
// Thin launcher: keeps LanceDB's native warnings out of CLI output, then runs the compiled CLI,
// or the TypeScript sources through tsx when no build exists (a fresh clone after `npm ci`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

process.env.LANCEDB_LOG ??= 'error';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'cli', 'main.js');
if (existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
}
