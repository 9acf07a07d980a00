import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopPostgres, type PostgresServerInfo } from './postgres-server.js';

/**
 * vitest globalSetup: gives the run a folder for its one PostgreSQL server (started lazily by the
 * first test file that needs it, see postgres.ts) and stops that server when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = await mkdtemp(join(tmpdir(), 'strata-pg-run-'));
  // Under root the server runs as `nobody` and must reach its folder inside this one.
  await chmod(runDir, 0o755);
  project.provide('strataPostgresRunDir', runDir);
  return async () => {
    const file = join(runDir, 'server.json');
    if (existsSync(file)) await stopPostgres(JSON.parse(await readFile(file, 'utf8')) as PostgresServerInfo, { keepDir: true });
    await rm(runDir, { recursive: true, force: true });
  };
}
