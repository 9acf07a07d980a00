import { readFile, stat } from 'node:fs/promises';
import { StorageError } from '../../errors/index.js';
import type { StoreMeta } from '../../spec/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';

/** What the store folder's meta file holds: the public StoreMeta plus the live table's name. */
export interface MetaFile extends StoreMeta {
  table: string;
  /** Tokenizer version the live table's full-text index was built with (fts.ts); absent in old stores = 1. */
  ftsVersion: number;
}

export const META_FILE = 'strata-store.json';

export async function readMetaFile(path: string): Promise<MetaFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StorageError({ message: `Cannot read store metadata ${path}: ${(error as Error).message}`, cause: error });
  }
  try {
    const parsed = JSON.parse(text) as Partial<MetaFile>;
    if (typeof parsed.embedderId !== 'string' || typeof parsed.dimensions !== 'number' || typeof parsed.table !== 'string') {
      throw new Error('missing embedderId, dimensions or table');
    }
    return {
      embedderId: parsed.embedderId,
      dimensions: parsed.dimensions,
      schemaVersion: parsed.schemaVersion ?? 1,
      createdAt: parsed.createdAt ?? new Date(0).toISOString(),
      table: parsed.table,
      ftsVersion: typeof parsed.ftsVersion === 'number' ? parsed.ftsVersion : 1,
    };
  } catch (error) {
    throw new StorageError({
      message: `Store metadata ${path} is corrupt (${(error as Error).message}); restore it from a backup or re-import into a new store.`,
      cause: error,
    });
  }
}

/** Writes the meta file atomically (temp file, fsync, rename, fsync of the folder). */
export async function writeMetaFile(path: string, meta: MetaFile): Promise<void> {
  await writeFileAtomic({ path, data: `${JSON.stringify(meta, null, 2)}\n` });
}

/** A cheap change detector for the meta file (a rename gives a new inode). */
export async function metaSignature(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.mtimeNs}:${s.size}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw new StorageError({ message: `Cannot stat store metadata ${path}: ${(error as Error).message}`, cause: error });
  }
}

export function publicMeta(meta: MetaFile): StoreMeta {
  return { embedderId: meta.embedderId, dimensions: meta.dimensions, schemaVersion: meta.schemaVersion, createdAt: meta.createdAt };
}

export function checkEmbedder(meta: MetaFile, wanted: { embedderId: string; dimensions: number }): MetaFile {
  if (meta.embedderId === wanted.embedderId && meta.dimensions === wanted.dimensions) return meta;
  throw new StorageError({
    code: 'EMBEDDER_MISMATCH',
    message:
      `This store was built with embedder ${meta.embedderId} (${meta.dimensions} dimensions) but the configured embedder is ` +
      `${wanted.embedderId} (${wanted.dimensions} dimensions). Run \`strata reembed\` to rebuild the store with the new embedder, ` +
      `or switch the embedder back to ${meta.embedderId}.`,
    details: {
      recorded: meta.embedderId,
      recordedDimensions: meta.dimensions,
      configured: wanted.embedderId,
      configuredDimensions: wanted.dimensions,
    },
  });
}
