/**
 * Read-only access to the L2 (scenes) and L3 (persona) files, shown only where they exist:
 * `<home>/persona/<agent>.md` and `<home>/scenes/<agent>/*.md`. Hosts never create them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface LayerFile {
  kind: 'persona' | 'scene';
  /** Scene file name without `.md`; the agent id for the persona. */
  name: string;
  path: string;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(() => true, () => false);
}

/** Lists the persona and scene files of one agent (none when the layer is not built). */
export async function listLayerFiles(options: { home: string; agentId: string | null }): Promise<LayerFile[]> {
  const agent = options.agentId;
  if (!agent || !SAFE_NAME.test(agent)) return [];
  const files: LayerFile[] = [];
  const persona = join(options.home, 'persona', `${agent}.md`);
  if (await exists(persona)) files.push({ kind: 'persona', name: agent, path: persona });
  const sceneDir = join(options.home, 'scenes', agent);
  const entries = await readdir(sceneDir).catch(() => [] as string[]);
  for (const entry of entries.sort()) {
    const name = entry.replace(/\.md$/, '');
    if (entry.endsWith('.md') && SAFE_NAME.test(name)) files.push({ kind: 'scene', name, path: join(sceneDir, entry) });
  }
  return files;
}

export function readLayerFile(file: LayerFile): Promise<string> {
  return readFile(file.path, 'utf8');
}
