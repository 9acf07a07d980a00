import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Write-then-rename: a reader sees the old or the new content, never a mix. With `sync` (default)
 * the file and its folder are fsynced too, so the new content also survives a power loss.
 */
export async function writeFileDurable(path: string, data: string, options: { sync?: boolean } = {}): Promise<void> {
  const sync = options.sync ?? true;
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data, 'utf8');
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  if (sync) await syncDir(dirname(path));
}

export async function syncDir(path: string): Promise<void> {
  try {
    const dir = await open(path, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

export async function readJsonFile(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** sha256 of the first `length` bytes of a file (fewer if the file is shorter), with the count hashed. */
export async function headHash(path: string, length: number): Promise<{ hash: string; length: number }> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return { hash: createHash('sha256').update(buf.subarray(0, bytesRead)).digest('hex').slice(0, 32), length: bytesRead };
  } finally {
    await handle.close();
  }
}

export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
