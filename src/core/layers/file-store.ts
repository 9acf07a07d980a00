/**
 * The layer store as files under the home, in the layout the hosts and people read (README.md):
 * `persona.md` is `<home>/persona/<agent>.md`, `scenes/*` is `<home>/scenes/<agent>/*`,
 * `checkpoint.json` is `<home>/layers/<agent>/checkpoint.json`; the version is kept beside it in
 * `<home>/layers/<agent>/version.json`. Commits of one agent serialise on a lock file and write
 * the files first and the version last, so a reader that saw the old version and some new files
 * fails its own commit instead of overwriting them. Nothing here follows a symlink: scene files
 * that are not regular, singly linked files are not part of the snapshot, and a symlinked scenes
 * or persona folder fails the read and the commit.
 */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LayerConflictError, StorageError } from '../../errors/index.js';
import {
  assertLayerFileName,
  isLayerFileName,
  type LayerChange,
  type LayerSnapshot,
  type LayerStoreCapabilities,
  type LayerStoreV1,
} from '../../spec/layer-store.js';
import { describeFsError, writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import { layerPaths, type LayerPaths } from './paths.js';
import { assertRealDirectories as assertRealFolders, readRegularFile, UnsafePathError } from './safe-fs.js';
import { listSceneFiles } from './scene-index.js';

/** A symlinked scenes or persona folder is never read or written through: a typed error saying which. */
async function assertRealDirectories(dirs: string[]): Promise<void> {
  try {
    await assertRealFolders(dirs);
  } catch (error) {
    if (error instanceof UnsafePathError) throw new StorageError({ message: error.message, cause: error });
    throw error;
  }
}

/** Reads a file the model may have tampered with; anything but a regular, singly linked file reads as absent. */
async function readSafe(path: string): Promise<string | undefined> {
  return readRegularFile(path).catch((error: unknown) => {
    if (error instanceof UnsafePathError) return undefined;
    throw error;
  });
}

export class FileLayerStore implements LayerStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'files';
  readonly capabilities: LayerStoreCapabilities = { shared: false, atomicCommit: false };
  private readonly home: string;

  constructor(options: { home: string }) {
    this.home = options.home;
  }

  private paths(agentId: string): LayerPaths & { versionFile: string; storeLock: string } {
    const paths = layerPaths({ home: this.home, agentId });
    return { ...paths, versionFile: join(paths.stateDir, 'version.json'), storeLock: join(paths.stateDir, 'store.lock') };
  }

  private pathOf(paths: LayerPaths, name: string): string {
    if (name === 'persona.md') return paths.personaFile;
    if (name === 'checkpoint.json') return paths.checkpointFile;
    return join(paths.scenesDir, name.slice('scenes/'.length));
  }

  private async version(file: string): Promise<number> {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as { version?: unknown };
      if (typeof parsed.version === 'number' && Number.isInteger(parsed.version) && parsed.version >= 0) return parsed.version;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw new StorageError({
        message: `Cannot read ${file}: ${describeFsError(error)}; delete it to start again from version 0.`,
        cause: error,
      });
    }
    throw new StorageError({ message: `${file} holds no version number; delete it to start again from version 0.` });
  }

  async read(options: { agentId: string; names?: string[] }): Promise<LayerSnapshot> {
    const paths = this.paths(options.agentId);
    const names = options.names?.map(assertLayerFileName);
    // The version first: a commit landing while the files are read then fails the reader's own commit.
    const version = await this.version(paths.versionFile);
    await assertRealDirectories([join(this.home, 'scenes'), paths.scenesDir, join(this.home, 'persona')]);
    const wanted = names ?? [
      'persona.md',
      'checkpoint.json',
      'scenes/.index.json',
      ...(await listSceneFiles(paths.scenesDir)).map((f) => `scenes/${f}`),
    ];
    const files: Record<string, string> = {};
    for (const name of wanted) {
      // A FIFO, device or file swapped since the listing is left out; other I/O errors fail the read.
      const text = await readSafe(this.pathOf(paths, name));
      if (text !== undefined) files[name] = text;
    }
    const occupied = names ? [] : await this.occupied(paths.scenesDir, files);
    return { version, files, ...(occupied.length > 0 ? { occupied } : {}) };
  }

  /** Scene names in the folder that did not read as regular, singly linked files. */
  private async occupied(scenesDir: string, files: Record<string, string>): Promise<string[]> {
    const entries = await readdir(scenesDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    return entries
      .map((n) => `scenes/${n}`)
      .filter((name) => isLayerFileName(name) && !(name in files))
      .sort();
  }

  async commit(options: { agentId: string; changes: LayerChange[]; expectedVersion: number }): Promise<{ version: number }> {
    const paths = this.paths(options.agentId);
    const changes = options.changes.map((c) => ({ ...c, name: assertLayerFileName(c.name) }));
    return withFileLock({ path: paths.storeLock, timeoutMs: 30_000 }, async () => {
      const actual = await this.version(paths.versionFile);
      if (actual !== options.expectedVersion) {
        throw new LayerConflictError({ agentId: paths.agentId, expectedVersion: options.expectedVersion, actualVersion: actual });
      }
      if (changes.length === 0) return { version: actual };
      await assertRealDirectories([join(this.home, 'scenes'), paths.scenesDir, join(this.home, 'persona')]);
      await mkdir(paths.scenesDir, { recursive: true });
      await mkdir(join(this.home, 'persona'), { recursive: true });
      for (const change of changes) await this.apply(paths, change);
      const version = actual + 1;
      await writeFileAtomic({ path: paths.versionFile, data: JSON.stringify({ version }) + '\n' });
      return { version };
    });
  }

  private async apply(paths: LayerPaths, change: LayerChange): Promise<void> {
    const path = this.pathOf(paths, change.name);
    if (change.text !== null) {
      // Replaced by rename: a symlink planted at the name is replaced, never written through.
      await writeFileAtomic({ path, data: change.text });
      return;
    }
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return;
      throw new StorageError({ message: `Cannot delete ${path}: ${describeFsError(error)}.`, cause: error });
    });
  }

  async close(): Promise<void> {}
}
