/**
 * Strata installed the way the README tells a user: `npm pack` of this checkout (what the registry
 * would serve), then `npm install -g` of that tarball into a prefix, on the pinned Node. The tarball
 * is built once per test process; each prefix is reused within the process (installs are fast
 * because npm's own cache keeps the dependencies).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { pathWith, type InstalledNode } from './toolchain.js';

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

export interface InstalledStrata {
  /** The global prefix (`<prefix>/bin/strata`, `<prefix>/lib/node_modules/strata-memory`). */
  prefix: string;
  binDir: string;
  packageDir: string;
  tarball: string;
}

let packing: Promise<string> | undefined;

/** `npm pack` of the checkout (runs `prepare`, i.e. the TypeScript build), once per process. */
export function packStrata(): Promise<string> {
  packing ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-pack-'));
    await run('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
    const file = (await readdir(dir)).find((f) => f.endsWith('.tgz'));
    if (!file) throw new Error(`npm pack left no tarball in ${dir}`);
    return join(dir, file);
  })();
  return packing;
}

const installs = new Map<string, Promise<InstalledStrata>>();

/** `npm install -g <tarball> --prefix <temp>` on `node`: the user's install. */
export function installStrata(node: InstalledNode): Promise<InstalledStrata> {
  let install = installs.get(node.version);
  if (!install) {
    install = (async () => {
      const tarball = await packStrata();
      const prefix = await mkdtemp(join(tmpdir(), `strata-global-node${node.version}-`));
      await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball], {
        env: { ...process.env, PATH: pathWith(node) },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 15 * 60_000,
      });
      return { prefix, binDir: join(prefix, 'bin'), packageDir: join(prefix, 'lib', 'node_modules', 'strata-memory'), tarball };
    })();
    installs.set(node.version, install);
  }
  return install;
}

export async function removeStrataInstalls(): Promise<void> {
  for (const install of installs.values()) {
    const done = await install.catch(() => undefined);
    if (done) await rm(done.prefix, { recursive: true, force: true });
  }
  installs.clear();
}
