/** Builds dist/ with the repository's tsc: benchmarks of installed commands run the built package. */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

export function buildDist(why: string): void {
  process.stdout.write(`building dist/ (${why})...\n`);
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('tsc failed');
}
