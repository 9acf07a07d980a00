import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageError } from '../errors/index.js';
import { writeFileAtomic } from './atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates parent directories, writes the data and leaves no temp file', async () => {
    const path = join(dir, 'a', 'b', 'file.json');
    expect(await writeFileAtomic({ path, data: '{"x":1}' })).toEqual({ written: true });
    expect(await readFile(path, 'utf8')).toBe('{"x":1}');
    expect(await readdir(join(dir, 'a', 'b'))).toEqual(['file.json']);
  });

  it('replaces an existing file by default and keeps it with overwrite: false', async () => {
    const path = join(dir, 'file.txt');
    await writeFile(path, 'old');
    expect(await writeFileAtomic({ path, data: 'new', overwrite: false })).toEqual({ written: false });
    expect(await readFile(path, 'utf8')).toBe('old');
    expect(await writeFileAtomic({ path, data: Buffer.from('newer') })).toEqual({ written: true });
    expect(await readFile(path, 'utf8')).toBe('newer');
    expect(await readdir(dir)).toEqual(['file.txt']);
  });

  it('creates a missing file with overwrite: false and applies the mode', async () => {
    const path = join(dir, 'secret.json');
    expect(await writeFileAtomic({ path, data: 'x', overwrite: false, mode: 0o600 })).toEqual({ written: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('throws a StorageError naming the path when a parent is a regular file', async () => {
    const file = join(dir, 'plain');
    await writeFile(file, 'x');
    const path = join(file, 'sub', 'config.json');
    const error = await writeFileAtomic({ path, data: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).message).toBe(`Cannot write ${path}: a parent of this path is a file, not a directory.`);
    expect((error as StorageError).details).toMatchObject({ path, errno: 'ENOTDIR' });
  });

  it('fails without touching the target when the target is a directory', async () => {
    const path = join(dir, 'target');
    await writeFileAtomic({ path: join(path, 'inner'), data: 'keep' });
    await expect(writeFileAtomic({ path, data: 'x' })).rejects.toBeInstanceOf(StorageError);
    expect(await readFile(join(path, 'inner'), 'utf8')).toBe('keep');
    expect(await readdir(dir)).toEqual(['target']);
  });
});
