/**
 * File locks: what an uncontended acquire + release costs with the holder record next to plain
 * proper-lockfile, and how long a waiter waits for a lock whose holder was killed while holding it,
 * with the record (taken over at once) and without it (the 10 s stale wait every lock had before,
 * and still has when the holder ran on another machine).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { withFileLock } from '../src/util/file-lock.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const HOLDER = `
  const { withFileLock } = await import(${JSON.stringify(new URL('../src/util/file-lock.ts', import.meta.url).href)});
  await withFileLock({ path: process.argv[1] }, async () => {
    process.stdout.write('held\\n');
    await new Promise(() => setInterval(() => {}, 1000));
  });
`;

async function killedHolder(path: string): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

async function uncontended(dir: string, runs: number): Promise<Array<Array<string | number>>> {
  const path = join(dir, 'plain.json');
  await writeFile(path, '');
  const ours: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await withFileLock({ path }, async () => undefined);
    ours.push((performance.now() - t) * 1000);
    t = performance.now();
    // The same steps withFileLock took before it recorded its holder.
    await mkdir(dir, { recursive: true });
    await writeFile(path, '', { flag: 'a' });
    const release = await lockfile.lock(path, { stale: 10_000, update: 5_000, realpath: false });
    await release();
    plain.push((performance.now() - t) * 1000);
  }
  const row = (name: string, samples: number[]) => {
    const s = summarize(samples.sort((a, b) => a - b));
    return [name, runs, s.p50.toFixed(0), s.p95.toFixed(0)];
  };
  return [row('withFileLock (holder record)', ours), row('without the record (as before)', plain)];
}

async function takeover(dir: string, runs: number, withRecord: boolean): Promise<Array<string | number>> {
  const waits: number[] = [];
  for (let i = 0; i < runs; i++) {
    const path = join(dir, `dead-${withRecord}-${i}.json`);
    await killedHolder(path);
    // Without the record the waiter knows nothing of the holder: the behaviour before, or a holder on another machine.
    if (!withRecord) await unlink(`${path}.owner`);
    const t = performance.now();
    await withFileLock({ path, timeoutMs: 60_000 }, async () => undefined);
    waits.push(performance.now() - t);
  }
  const s = summarize(waits.sort((a, b) => a - b));
  return [withRecord ? 'holder record on this machine' : 'no record (stale wait, 10 s default)', runs, s.p50.toFixed(1), s.p95.toFixed(1)];
}

export async function runLocksBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-locks-'));
  try {
    printTable('Uncontended acquire + release (µs)', ['lock', 'runs', 'p50 µs', 'p95 µs'], await uncontended(dir, 400));
    printTable(
      'Waiting for a lock whose holder was killed (SIGKILL) while holding it (ms)',
      ['case', 'runs', 'p50 ms', 'p95 ms'],
      [await takeover(dir, 8, true), await takeover(dir, 2, false)],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
