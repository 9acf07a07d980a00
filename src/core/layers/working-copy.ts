/**
 * The organiser's per-run working folder: the agent's layer snapshot materialised in the home's
 * layout under `<home>/layers/<agent>/.work-*`, so the sandbox, the tidy-up, the index and the
 * persona writer work on plain files exactly as before. At the end `changes()` lists what the run
 * wrote or deleted, for one commit on the snapshot's version. Lock, backups and persona backups
 * stay in the real home. The caller holds the agent's organiser lock, which makes clearing
 * working folders left by a crashed run safe.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LayerChange, LayerSnapshot } from '../../spec/layer-store.js';
import { FileLayerStore } from './file-store.js';
import { layerPaths, type LayerPaths } from './paths.js';

export interface WorkingCopy {
  /** Scenes, index, persona and checkpoint in the working folder; lock and backups in the home. */
  paths: LayerPaths;
  /** Files written or deleted since the snapshot (deletions only of files the snapshot had). */
  changes(): Promise<LayerChange[]>;
  dispose(): Promise<void>;
}

const PREFIX = '.work-';

export async function materialise(options: { home: string; agentId: string; snapshot: LayerSnapshot }): Promise<WorkingCopy> {
  const real = layerPaths({ home: options.home, agentId: options.agentId });
  await mkdir(real.stateDir, { recursive: true });
  for (const name of await readdir(real.stateDir)) {
    if (name.startsWith(PREFIX)) await rm(join(real.stateDir, name), { recursive: true, force: true });
  }
  const root = await mkdtemp(join(real.stateDir, PREFIX));
  const work = new FileLayerStore({ home: root });
  const base = options.snapshot.files;
  try {
    await work.commit({
      agentId: options.agentId,
      changes: Object.entries(base).map(([name, text]) => ({ name, text })),
      expectedVersion: 0,
    });
    // A folder in place of each occupied name: the sandbox refuses it like the original, and changes() never lists it.
    const scenesDir = join(root, 'scenes', options.agentId);
    await mkdir(scenesDir, { recursive: true });
    for (const name of options.snapshot.occupied ?? []) await mkdir(join(scenesDir, name.slice('scenes/'.length)));
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const inWork = layerPaths({ home: root, agentId: options.agentId });
  return {
    paths: { ...inWork, lockFile: real.lockFile, sceneBackupsDir: real.sceneBackupsDir, personaBackupsDir: real.personaBackupsDir },
    async changes() {
      const after = (await work.read({ agentId: options.agentId })).files;
      const changes: LayerChange[] = [];
      for (const [name, text] of Object.entries(after)) if (base[name] !== text) changes.push({ name, text });
      for (const name of Object.keys(base)) if (!(name in after)) changes.push({ name, text: null });
      return changes;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}
