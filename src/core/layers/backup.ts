/**
 * Folder backups for the scenes and file backups for the persona. Backups are full copies (scene
 * folders are small: at most a few dozen files of at most 64 KB), named by time so the newest
 * sort last, and pruned to the newest `keep`.
 */
import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StorageError } from '../../errors/index.js';
import { describeFsError } from '../../util/atomic-write.js';

function stamp(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

async function prune(dir: string, keep: number): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    await rm(join(dir, name), { recursive: true, force: true });
  }
}

async function copyable(source: string): Promise<boolean> {
  const stat = await lstat(source).catch(() => undefined);
  if (!stat) return false;
  return stat.isDirectory() || stat.isSymbolicLink() || (stat.isFile() && stat.nlink === 1);
}

/** Copies `dir` (hidden files and symlinks included, symlinks not followed) into a new backup. */
export async function backupFolder(options: { dir: string; backupsDir: string; keep: number; now?: Date }): Promise<string> {
  const target = join(options.backupsDir, stamp(options.now ?? new Date()));
  try {
    await mkdir(options.dir, { recursive: true });
    await mkdir(options.backupsDir, { recursive: true });
    // Only folders and regular singly linked files are copied: a FIFO would block or abort the copy, a hard link
    // would copy a file from outside, a symlink is kept as a link (never followed).
    await cp(options.dir, target, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, filter: copyable });
  } catch (error) {
    throw new StorageError({ message: `Cannot back up ${options.dir} to ${target}: ${describeFsError(error)}.`, cause: error });
  }
  await prune(options.backupsDir, options.keep);
  return target;
}

/**
 * Puts `backup` back in place of `dir`: the copy is staged next to the backups, then swapped in
 * with two renames, so a crash mid-restore leaves either the old or the restored folder.
 */
export async function restoreFolder(options: { dir: string; backup: string }): Promise<void> {
  const staging = join(dirname(options.backup), `.restore-${randomBytes(4).toString('hex')}`);
  const trash = join(dirname(options.backup), `.trash-${randomBytes(4).toString('hex')}`);
  try {
    await cp(options.backup, staging, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    await rename(options.dir, trash).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(staging, options.dir);
    await rm(trash, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw new StorageError({
      message: `Cannot restore ${options.dir} from ${options.backup}: ${describeFsError(error)}. Copy the backup back by hand.`,
      cause: error,
    });
  }
}

/** Keeps a copy of one file (no-op when it does not exist yet). */
export async function backupFile(options: { file: string; backupsDir: string; keep: number; now?: Date }): Promise<string | undefined> {
  const target = join(options.backupsDir, `${stamp(options.now ?? new Date())}.md`);
  try {
    await mkdir(options.backupsDir, { recursive: true });
    if (!(await copyable(options.file)) || (await lstat(options.file)).isSymbolicLink()) return undefined; // never follow a planted link
    await cp(options.file, target, { preserveTimestamps: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StorageError({ message: `Cannot back up ${options.file}: ${describeFsError(error)}.`, cause: error });
  }
  await prune(options.backupsDir, options.keep);
  return target;
}
