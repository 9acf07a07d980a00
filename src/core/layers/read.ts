/**
 * Reading an agent's scenes and persona through its layer store (files under the home, or the
 * shared database): what the context block, the layer operations (CLI, MCP, HTTP, inspector) and
 * hosts show. Only names a layer store holds can be asked for, so no name reaches outside.
 */
import { isLayerFileName, type LayerStoreV1 } from '../../spec/layer-store.js';
import { parseScene } from './scene-file.js';
import { parseSceneIndex, sortScenes, type SceneIndexEntry } from './scene-index.js';

export async function readPersonaText(store: LayerStoreV1, agentId: string): Promise<string | undefined> {
  return (await store.read({ agentId, names: ['persona.md'] })).files['persona.md'];
}

/** The scene index; rebuilt from the scene files when it is missing or damaged. */
export async function readScenes(store: LayerStoreV1, agentId: string): Promise<SceneIndexEntry[]> {
  const indexed = parseSceneIndex((await store.read({ agentId, names: ['scenes/.index.json'] })).files['scenes/.index.json']);
  if (indexed) return indexed;
  const { files } = await store.read({ agentId });
  const entries: SceneIndexEntry[] = [];
  for (const [name, raw] of Object.entries(files)) {
    if (!name.startsWith('scenes/') || !name.endsWith('.md')) continue;
    const { body: _body, ...meta } = parseScene(raw);
    entries.push({ filename: name.slice('scenes/'.length), ...meta });
  }
  return sortScenes(entries);
}

/** One scene file's text; undefined when there is none of that name (or the name is not a scene name). */
export async function readSceneText(store: LayerStoreV1, agentId: string, filename: string): Promise<string | undefined> {
  const name = `scenes/${filename}`;
  if (!isLayerFileName(name)) return undefined;
  return (await store.read({ agentId, names: [name] })).files[name];
}
