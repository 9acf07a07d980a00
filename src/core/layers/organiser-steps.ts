/** The organiser's steps that do not need the model: which memories are new, the tidy-up after a run, option checks. */
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import type { ListMemoriesOptions } from '../engine/types.js';
import { isAutoInjectable } from '../write/injection.js';
import { isAfterCheckpoint, type LayerCheckpoint } from './checkpoint.js';
import { readRegularFile } from './safe-fs.js';
import { isDeadScene, normalizeSceneName } from './scene-file.js';
import { listSceneFiles } from './scene-index.js';

/** What the organiser needs from the engine (`Strata` and `MemoryEngine` both fit). */
export interface MemoryLister {
  list(options: ListMemoriesOptions): Promise<MemoryRecord[]>;
}

const PAGE = 500;
const SCAN_CAP = 20_000;

/** Memories after the checkpoint, oldest first (pages newest-first until it reaches the checkpoint). */
export async function newMemories(options: {
  memories: MemoryLister;
  scopes: string[];
  checkpoint: LayerCheckpoint;
  limit: number;
}): Promise<MemoryRecord[]> {
  const fresh: MemoryRecord[] = [];
  for (let offset = 0; offset < SCAN_CAP; offset += PAGE) {
    const page = await options.memories.list({ scopes: options.scopes, order: 'newest', limit: PAGE, offset });
    const after = page.filter((r) => isAfterCheckpoint(r, options.checkpoint));
    // Scene files reach prompts through the bootstrap, so flagged memories are never organised into them.
    fresh.push(...after.filter(isAutoInjectable));
    if (page.length < PAGE || after.length < page.length) break;
  }
  fresh.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return fresh.slice(0, options.limit);
}

/** Removes dead files, then gives every scene a canonical name (collisions get `-2`, `-3`, ...). */
export async function tidyScenes(scenesDir: string): Promise<Array<{ from: string; to: string }>> {
  for (const file of await listSceneFiles(scenesDir)) {
    const raw = await readRegularFile(join(scenesDir, file)).catch(() => undefined);
    if (raw !== undefined && isDeadScene(raw)) await unlink(join(scenesDir, file));
  }
  const renamed: Array<{ from: string; to: string }> = [];
  const taken = new Set(await listSceneFiles(scenesDir));
  for (const file of [...taken].sort()) {
    const base = normalizeSceneName(file);
    if (base === file) continue;
    let target = base;
    for (let n = 2; taken.has(target); n++) target = base.replace(/\.md$/, `-${n}.md`);
    await rename(join(scenesDir, file), join(scenesDir, target));
    taken.delete(file);
    taken.add(target);
    renamed.push({ from: file, to: target });
  }
  return renamed;
}

export async function snapshot(scenesDir: string): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const file of await listSceneFiles(scenesDir)) {
    const raw = await readRegularFile(join(scenesDir, file)).catch(() => undefined);
    if (raw !== undefined) map.set(file, raw);
  }
  return map;
}

/** An integer option with a default; `min` 0 only where 0 means "off". */
export function intOption(value: number | undefined, fallback: number, argument: string, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new InvalidArgumentError({ argument, message: `${argument} must be an integer >= ${min}.` });
  return v;
}
