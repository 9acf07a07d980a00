/**
 * The scene index (`<scenes>/.index.json`): one entry per scene file, rebuilt from the files after
 * every organiser run so it can never drift for long. Readers that find it missing or damaged
 * fall back to scanning the folder.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { readRegularFile } from './safe-fs.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { parseScene, type SceneMeta } from './scene-file.js';
import { redactDeep } from '../write/redact-record.js';

export interface SceneIndexEntry extends SceneMeta {
  filename: string;
}

interface IndexFile {
  version: 1;
  scenes: SceneIndexEntry[];
}

/** Scene files: regular, non-hidden `*.md` files directly in the folder (symlinks are ignored). */
export async function listSceneFiles(scenesDir: string): Promise<string[]> {
  const entries = await readdir(scenesDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

/** Entries built from the files on disk, hottest first (ties: most recently updated). */
export async function scanScenes(scenesDir: string): Promise<SceneIndexEntry[]> {
  const entries: SceneIndexEntry[] = [];
  for (const filename of await listSceneFiles(scenesDir)) {
    const path = join(scenesDir, filename);
    // Hard links and files swapped since the listing are skipped: nothing outside the folder is read.
    const [raw, stat] = await Promise.all([readRegularFile(path).catch(() => undefined), lstat(path)]);
    if (raw === undefined) continue;
    const { body: _body, ...meta } = parseScene(raw, stat.mtime.toISOString());
    entries.push({ filename, ...meta });
  }
  return sortScenes(entries);
}

/** Hottest first (ties: most recently updated, then by name). */
export function sortScenes(entries: SceneIndexEntry[]): SceneIndexEntry[] {
  return entries.sort((a, b) => b.heat - a.heat || b.updated.localeCompare(a.updated) || a.filename.localeCompare(b.filename));
}

/** The index's entries from its JSON text; undefined when missing or not an index. */
export function parseSceneIndex(text: string | undefined): SceneIndexEntry[] | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<IndexFile>;
    if (parsed.version === 1 && Array.isArray(parsed.scenes)) return parsed.scenes;
  } catch {
    // damaged: the caller rebuilds the view from the files
  }
  return undefined;
}

export async function readSceneIndex(options: { scenesDir: string; indexFile: string }): Promise<SceneIndexEntry[]> {
  const text = await readFile(options.indexFile, 'utf8').catch(() => undefined);
  return parseSceneIndex(text) ?? scanScenes(options.scenesDir);
}

export async function syncSceneIndex(options: { scenesDir: string; indexFile: string }): Promise<SceneIndexEntry[]> {
  const scenes = await scanScenes(options.scenesDir);
  const file: IndexFile = { version: 1, scenes };
  await writeFileAtomic({ path: options.indexFile, data: JSON.stringify(redactDeep(file), null, 2) + '\n' });
  return scenes;
}
