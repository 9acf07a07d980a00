/**
 * Strata installed the way the README tells a user: `npm pack` of this checkout (its `prepare`
 * builds dist/), then `npm install -g` of the tarball into a prefix of its own. The install is
 * cached by the tarball's hash (npm pack writes fixed mtimes, so unchanged code packs the same),
 * so reruns skip the ~40 s install. `$STRATA_E2E_TARBALL` tests a given tarball instead (e.g. a
 * build of main, to show a test fails without a change).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../support/run-cli.js';
import { cacheRoot, installOnce } from '../../support/toolchain.js';

const run = promisify(execFile);

export interface StrataInstall {
  tarball: string;
  /** `npm install -g --prefix <prefix>`: bins in `<prefix>/bin`, the package in `<prefix>/lib/node_modules`. */
  prefix: string;
  binDir: string;
  packageDir: string;
}

let packed: Promise<string> | undefined;

/** Packs this checkout once per test process. */
export function packStrata(): Promise<string> {
  packed ??= (async () => {
    if (process.env.STRATA_E2E_TARBALL) return process.env.STRATA_E2E_TARBALL;
    const dir = await mkdtemp(join(tmpdir(), 'strata-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    });
    const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
    return join(dir, info!.filename);
  })();
  return packed;
}

async function sha(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
    .slice(0, 16);
}

/** Keeps the newest few installs: every code change packs a new tarball. */
async function pruneOld(keep: string): Promise<void> {
  const entries = (await readdir(cacheRoot()).catch(() => [] as string[])).filter(
    (e) => e.startsWith('strata-memory-') && !e.endsWith('.lock') && e !== keep,
  );
  const dated = await Promise.all(entries.map(async (e) => ({ e, t: (await stat(join(cacheRoot(), e))).mtimeMs })));
  for (const { e } of dated.sort((a, b) => b.t - a.t).slice(2)) await rm(join(cacheRoot(), e), { recursive: true, force: true });
}

/** `npm install -g <tarball>` into a cached prefix. */
export async function installStrataGlobally(): Promise<StrataInstall> {
  const tarball = await packStrata();
  const key = `strata-memory-${await sha(tarball)}`;
  const prefix = await installOnce(key, async (p) => {
    await writeFile(join(p, '.npmrc'), '');
    await run('npm', ['install', '-g', '--prefix', p, '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: p,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 20 * 60_000,
    });
  });
  await pruneOld(key);
  return { tarball, prefix, binDir: join(prefix, 'bin'), packageDir: join(prefix, 'lib', 'node_modules', 'strata-memory') };
}

/** `npm install --save-dev <tarball>` in a project (a team's checkout). */
export async function installStrataInProject(options: { project: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const tarball = await packStrata();
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], {
    cwd: options.project,
    env: options.env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 20 * 60_000,
  });
}
