// Runtime entry: the compiled plugin, or the TypeScript sources through tsx when no build exists
// (a fresh clone after `npm ci`), the same fallback bin/strata.js uses.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'hosts', 'openclaw', 'index.js');
let entry;
if (existsSync(built)) {
  entry = await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = await import(pathToFileURL(join(root, 'src', 'hosts', 'openclaw', 'index.ts')).href);
}
export default entry.default;
