import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StorageError } from '../errors/index.js';

export interface WriteFileAtomicOptions {
  path: string;
  data: string | Uint8Array;
  /** Replace an existing file (default true). With false an existing file is left untouched. */
  overwrite?: boolean;
  /** The file's mode, e.g. 0o600, exactly (the umask does not apply). Default 0o666 minus the umask. */
  mode?: number;
}

/**
 * Writes a file so that readers see either the old or the complete new content, never a torn
 * one: write a temp file in the same directory, fsync it, then rename (or hard-link, when an
 * existing file must not be replaced) over the target, then fsync the directory.
 * Returns `written: false` only when `overwrite` is false and the file already exists.
 */
export async function writeFileAtomic(options: WriteFileAtomicOptions): Promise<{ written: boolean }> {
  const { path } = options;
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'wx', options.mode ?? 0o666);
    try {
      await handle.writeFile(options.data);
      // open() applies the umask; the caller asked for this exact mode (e.g. keeping a file's 0644).
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    let written = true;
    if (options.overwrite === false) written = await linkNoClobber(temp, path);
    else await rename(temp, path);
    await syncDirectory(dir);
    return { written };
  } catch (error) {
    throw new StorageError({
      message: `Cannot write ${path}: ${describeFsError(error)}.`,
      cause: error,
      details: { path, errno: (error as NodeJS.ErrnoException).code },
    });
  } finally {
    await unlink(temp).catch(() => undefined); // gone after a rename; left behind after a link or a failure
  }
}

/** Hard-linking fails with EEXIST instead of replacing, which makes "create unless present" atomic. */
async function linkNoClobber(temp: string, path: string): Promise<boolean> {
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
  }
  // File systems without hard links (FAT, some network mounts): an exclusive copy still never clobbers.
  try {
    await copyFile(temp, path, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename durable; not supported on every platform (Windows), where it is skipped.
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOTDIR':
      return 'a parent of this path is a file, not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; check the owner and mode of the directory';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EISDIR':
      return 'the path is a directory';
    default:
      return e.message ?? String(error);
  }
}
