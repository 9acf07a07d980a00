/**
 * Layer store specification, version 1: where an agent's organiser output lives — its L2 scene
 * files, the scene index, its L3 persona and the organiser's checkpoint — as one small set of
 * named text files with a version number. The organiser materialises a snapshot into a working
 * folder, works there, and writes back what changed in one commit that checks the version is still
 * the one it read; when another machine committed in between, the commit fails with a
 * LayerConflictError and the run is redone on the newer version, so no machine's work is lost.
 *
 * File names (the only ones a store accepts, see `assertLayerFileName`):
 * - `persona.md`: the persona (body + scene navigation);
 * - `checkpoint.json`: how far the memory stream has been organised (kept with the scenes, so a
 *   redone run never organises the same memories twice);
 * - `scenes/.index.json`: the scene index;
 * - `scenes/<name>.md`: one scene file (a plain, non-hidden name).
 */
import { InvalidArgumentError } from '../errors/index.js';

export interface LayerSnapshot {
  /** 0 for an agent that has never been committed; every commit adds 1. */
  version: number;
  /** File name -> text. */
  files: Record<string, string>;
  /**
   * Scene names taken by something that is not a readable file (the file backend: a symlink,
   * folder, FIFO or hard link left in the scenes folder). Writers leave them alone: the
   * organiser's model sees them as refused names, and no commit names them.
   */
  occupied?: string[];
}

/** One file of a commit: new text, or null to delete it. */
export interface LayerChange {
  name: string;
  text: string | null;
}

export interface LayerStoreCapabilities {
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
  /** A commit lands entirely or not at all, also across a crash (a database transaction). */
  atomicCommit: boolean;
}

export interface LayerStoreV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `files` (under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: LayerStoreCapabilities;
  /**
   * The agent's files and their version, as of one moment. `names` reads only those files (the
   * version is still the agent's); names that do not exist are absent from `files`.
   */
  read(options: { agentId: string; names?: string[] }): Promise<LayerSnapshot>;
  /**
   * Applies `changes` when the agent is still at `expectedVersion` and returns the new version
   * (`expectedVersion + 1`); throws a LayerConflictError (code VERSION_CONFLICT, retryable) and
   * changes nothing when another commit moved the version. An empty commit changes nothing and
   * returns the current version after the same check.
   */
  commit(options: { agentId: string; changes: LayerChange[]; expectedVersion: number }): Promise<{ version: number }>;
  close(): Promise<void>;
}

/** Names are checked the same way by every backend and by the organiser's working folder. */
export const LAYER_FIXED_FILES = ['persona.md', 'checkpoint.json', 'scenes/.index.json'] as const;

/** Largest scene name in UTF-8 bytes (the sandbox's own limit). */
const MAX_SCENE_NAME_BYTES = 128;

/** True for a name a layer store holds (see the list above). */
export function isLayerFileName(name: string): boolean {
  if ((LAYER_FIXED_FILES as readonly string[]).includes(name)) return true;
  if (!name.startsWith('scenes/')) return false;
  const file = name.slice('scenes/'.length);
  return (
    file.endsWith('.md') &&
    !file.startsWith('.') &&
    !file.includes('/') &&
    !file.includes('\\') &&
    !file.includes('..') &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f]/.test(file) &&
    Buffer.byteLength(file, 'utf8') <= MAX_SCENE_NAME_BYTES
  );
}

/** The name, when a layer store holds it; an InvalidArgumentError otherwise. */
export function assertLayerFileName(name: string): string {
  if (!isLayerFileName(name)) {
    throw new InvalidArgumentError({
      argument: 'name',
      message: `${JSON.stringify(name)} is not a layer file: use persona.md, checkpoint.json, scenes/.index.json or scenes/<name>.md.`,
    });
  }
  return name;
}
