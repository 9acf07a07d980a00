/**
 * File access for folders an LLM writes into (scenes, persona). Nothing there is trusted: a file
 * may have been replaced by a symlink, a hard link to a file elsewhere, a FIFO or a device, and a
 * folder by a symlink. Reads open with O_NOFOLLOW (and O_NONBLOCK, so a FIFO never blocks) and
 * check the opened file itself: a regular file with one link, no larger than the caller allows.
 * Folders must be real directories whose real path is the expected one.
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/** Reads a regular, singly linked file without following a symlink; undefined when it does not exist. */
export async function readRegularFile(path: string, options: { maxBytes?: number } = {}): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw new UnsafePathError('symbolic links are not accessible.');
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UnsafePathError('not a regular file.');
    if (stat.nlink !== 1) throw new UnsafePathError('hard-linked files are not accessible.');
    if (options.maxBytes !== undefined && stat.size > options.maxBytes)
      throw new UnsafePathError(`file too large (${stat.size} bytes; limit ${options.maxBytes}).`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** What lstat says about a path about to be written: absent, or a regular singly linked file. */
export async function assertWritableTarget(path: string): Promise<{ exists: boolean }> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat) return { exists: false };
  if (stat.isSymbolicLink()) throw new UnsafePathError('symbolic links are not accessible.');
  if (!stat.isFile()) throw new UnsafePathError('not a regular file.');
  if (stat.nlink !== 1) throw new UnsafePathError('hard-linked files are not accessible.');
  return { exists: true };
}

/** Folders that must be real directories (not symlinks, not files); missing ones are fine (they get created). */
export async function assertRealDirectories(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    const stat = await lstat(dir).catch(() => undefined);
    if (stat && (stat.isSymbolicLink() || !stat.isDirectory())) {
      throw new UnsafePathError(`${dir} is not a real directory (a symlink or a file): refusing to read or write through it.`);
    }
  }
}

/** Byte length of a file name (ext4 and most file systems limit names to 255 bytes, not characters). */
export const nameBytes = (name: string): number => Buffer.byteLength(name, 'utf8');
