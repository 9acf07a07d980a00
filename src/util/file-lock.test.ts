/**
 * The file lock against real processes: a holder killed with SIGKILL is taken over at once (long
 * before its lock would go stale), a live holder never is, a record that belongs to an earlier lock
 * directory vouches for nothing, and waiters racing to take over stay mutually exclusive.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileLock } from './file-lock.js';

const HOLDER = `
  const { withFileLock } = await import(${JSON.stringify(new URL('./file-lock.ts', import.meta.url).href)});
  await withFileLock({ path: process.argv[1], staleMs: 60000 }, async () => {
    process.stdout.write('held\\n');
    await new Promise(() => setInterval(() => {}, 1000));
  });
`;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function lockPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-lock-'));
  dirs.push(dir);
  return join(dir, 'state.json');
}

/** A real process that takes the lock (stale after 60 s) and holds it until killed. */
async function holder(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

// Far shorter than the 60 s staleness: getting the lock at all proves the takeover.
const WAIT = { staleMs: 60_000, timeoutMs: 3_000 };

describe('withFileLock across processes', () => {
  it('takes over at once from a holder that was killed while holding', async () => {
    const path = await lockPath();
    await kill(await holder(path));
    expect(await withFileLock({ path, ...WAIT }, async () => 'got it')).toBe('got it');
  });

  it('never takes a live holder’s lock', async () => {
    const path = await lockPath();
    await holder(path);
    await expect(withFileLock({ path, staleMs: 60_000, timeoutMs: 1_000 }, async () => 'stolen')).rejects.toMatchObject({
      code: 'STORE_LOCKED',
    });
  });

  it('ignores an owner record written for another lock directory', async () => {
    const path = await lockPath();
    await kill(await holder(path));
    const owner = JSON.parse(await readFile(`${path}.owner`, 'utf8')) as { ino: number };
    await writeFile(`${path}.owner`, JSON.stringify({ ...owner, ino: owner.ino + 1 }));
    await expect(withFileLock({ path, staleMs: 60_000, timeoutMs: 1_000 }, async () => 'stolen')).rejects.toMatchObject({
      code: 'STORE_LOCKED',
    });
  });

  it('keeps waiters that race to take over a dead holder’s lock mutually exclusive', async () => {
    const path = await lockPath();
    await kill(await holder(path));
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        withFileLock({ path, ...WAIT, timeoutMs: 10_000 }, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 20));
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
  });
});
