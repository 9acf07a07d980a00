import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, readFile, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * Who holds a file lock, so a waiter can take over at once from a holder that died instead of
 * waiting for the lock to go stale. proper-lockfile's lock is the directory `<path>.lock`, whose
 * mtime it refreshes; the owner record is the sibling file `<path>.owner` (a file inside the lock
 * directory would change the directory's mtime, which proper-lockfile reads as a stolen lock).
 *
 * The record names the lock directory it belongs to (inode and birth time), so a record left by a
 * killed holder never vouches for a later holder's directory. A lock without a record (a holder
 * killed in the microseconds between taking it and recording itself, or on another machine) goes
 * stale the old way.
 */
interface OwnerRecord {
  pid: number;
  host: string;
  ino: number;
  birth: number;
}

const lockDirOf = (path: string): string => `${path}.lock`;
const ownerPathOf = (path: string): string => `${path}.owner`;
/** A takeover guard older than this was left by a process that died inside the few-ms takeover. */
const GUARD_STALE_MS = 5_000;

async function lockIdentity(path: string): Promise<{ ino: number; birth: number; mtimeMs: number } | undefined> {
  try {
    const s = await stat(lockDirOf(path));
    return { ino: s.ino, birth: s.birthtimeMs, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * The `fs` proper-lockfile runs on: it records this process as the holder right after its `mkdir`
 * took the lock, and clears the record once its `rmdir` released it, so a kill between the two
 * steps of a release leaves at worst a record that matches no lock directory.
 */
export function ownerRecordingFs(path: string): typeof fs {
  const lockDir = lockDirOf(path);
  let mine: OwnerRecord | undefined;
  // Synchronous for the lock directory: a kill can then land only between two system calls, not in
  // the milliseconds a busy event loop takes to run an async callback.
  const mkdir = ((dir: string, ...rest: unknown[]) => {
    const callback = rest.pop() as (error: NodeJS.ErrnoException | null) => void;
    if (dir !== lockDir) return void fs.mkdir(dir, ...(rest as []), callback);
    let failure: NodeJS.ErrnoException | null = null;
    try {
      fs.mkdirSync(dir);
      mine = writeRecord(path);
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    process.nextTick(callback, failure);
  }) as typeof fs.mkdir;
  const rmdir = ((dir: string, ...rest: unknown[]) => {
    const callback = rest.pop() as (error: NodeJS.ErrnoException | null) => void;
    fs.rmdir(dir, ...(rest as []), (error: NodeJS.ErrnoException | null) => {
      if (!error && dir === lockDir && mine) clearRecord(path, mine);
      callback(error);
    });
  }) as typeof fs.rmdir;
  // The module as prototype: a per-call copy of its hundreds of properties would be waste.
  return Object.assign(Object.create(fs) as typeof fs, { mkdir, rmdir });
}

function writeRecord(path: string): OwnerRecord | undefined {
  const temp = `${ownerPathOf(path)}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const s = fs.statSync(lockDirOf(path));
    const record: OwnerRecord = { pid: process.pid, host: hostname(), ino: s.ino, birth: s.birthtimeMs };
    fs.writeFileSync(temp, JSON.stringify(record));
    fs.renameSync(temp, ownerPathOf(path));
    return record;
  } catch {
    // Without a record the lock still works; a crash then costs the stale wait.
    fs.rmSync(temp, { force: true });
    return undefined;
  }
}

/** Removes the record if it is still ours (the next holder may already have written its own). */
function clearRecord(path: string, record: OwnerRecord): void {
  try {
    const current = JSON.parse(fs.readFileSync(ownerPathOf(path), 'utf8')) as OwnerRecord;
    if (current.pid === record.pid && current.ino === record.ino && current.birth === record.birth) fs.unlinkSync(ownerPathOf(path));
  } catch {
    // Gone or unreadable: nothing of ours to clear.
  }
}

/** Alive unless the kernel says the process is gone (or a zombie nobody has reaped yet). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Field 3 of /proc/<pid>/stat is the state; the name before it is in parentheses and may hold spaces.
    const statLine = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return statLine.slice(statLine.lastIndexOf(')') + 2, statLine.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

async function deadHolder(path: string, staleMs: number): Promise<boolean> {
  const id = await lockIdentity(path);
  // Nearly stale: proper-lockfile takes it over itself, and the two takeovers must not race.
  if (!id || Date.now() - id.mtimeMs > staleMs - Math.min(1_000, staleMs / 4)) return false;
  let record: OwnerRecord;
  try {
    record = JSON.parse(await readFile(ownerPathOf(path), 'utf8')) as OwnerRecord;
  } catch {
    return false;
  }
  if (record.host !== hostname() || record.ino !== id.ino || record.birth !== id.birth) return false;
  return record.pid !== process.pid && !processAlive(record.pid);
}

/**
 * Removes the lock when its recorded holder is a dead process on this machine. Takeovers are
 * serialised by a guard directory and re-checked inside it, so two waiters never both remove a
 * lock (the second would remove the one the first has just taken). Returns whether it removed one.
 */
export async function takeOverFromDeadHolder(path: string, staleMs: number): Promise<boolean> {
  if (!(await deadHolder(path, staleMs))) return false;
  const guard = `${path}.takeover`;
  try {
    await mkdir(guard);
  } catch {
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > GUARD_STALE_MS) await rmdir(guard).catch(() => undefined);
    return false;
  }
  try {
    if (!(await deadHolder(path, staleMs))) return false;
    await unlink(ownerPathOf(path)).catch(() => undefined);
    await rm(lockDirOf(path), { recursive: true, force: true });
    return true;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}
