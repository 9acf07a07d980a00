import { open } from 'node:fs/promises';

/** The last `maxBytes` of a file as UTF-8 (the whole file when smaller); undefined when it cannot be read. */
export async function readFileTail(path: string, maxBytes: number): Promise<string | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      const size = (await handle.stat()).size;
      const start = Math.max(0, size - maxBytes);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
