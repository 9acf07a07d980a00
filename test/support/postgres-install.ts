/** `npx tsx test/support/postgres-install.ts`: installs (or finds) the test PostgreSQL and prints its version. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensurePostgresBinaries } from './postgres-binaries.js';

const started = Date.now();
const bin = await ensurePostgresBinaries();
const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
console.log(`${version} with pgvector in ${bin} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
