/** Per-agent organiser state: how far the memory stream has been organised, and persona triggers. */
import { readFile } from 'node:fs/promises';
import { StorageError } from '../../errors/index.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { writeFileAtomic } from '../../util/atomic-write.js';

export interface LayerCheckpoint {
  /** The last organised memory, by (createdAt, id); null before the first run. */
  lastCreatedAt: string | null;
  lastId: string | null;
  totalProcessed: number;
  /** Memories organised since the persona was last written. */
  sincePersona: number;
  /** A pending persona request (from the organiser, or a failed regeneration to retry). */
  personaRequest: string | null;
  lastRunAt: string | null;
}

export const EMPTY_CHECKPOINT: LayerCheckpoint = {
  lastCreatedAt: null,
  lastId: null,
  totalProcessed: 0,
  sincePersona: 0,
  personaRequest: null,
  lastRunAt: null,
};

/** The checkpoint as a layer store holds it (`checkpoint.json`); none yet is a fresh start. */
export function parseCheckpoint(text: string | undefined, agentId: string): LayerCheckpoint {
  if (text === undefined) return { ...EMPTY_CHECKPOINT };
  try {
    return { ...EMPTY_CHECKPOINT, ...(JSON.parse(text) as Partial<LayerCheckpoint>) };
  } catch (error) {
    // Not a fresh start: that would organise every memory again.
    throw new StorageError({
      message: `The organiser checkpoint of agent ${agentId} is not valid JSON; fix or delete it (deleting re-organises every memory).`,
      cause: error,
    });
  }
}

export async function readCheckpoint(file: string): Promise<LayerCheckpoint> {
  try {
    return { ...EMPTY_CHECKPOINT, ...(JSON.parse(await readFile(file, 'utf8')) as Partial<LayerCheckpoint>) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...EMPTY_CHECKPOINT };
    throw error;
  }
}

export async function writeCheckpoint(file: string, checkpoint: LayerCheckpoint): Promise<void> {
  await writeFileAtomic({ path: file, data: JSON.stringify(checkpoint, null, 2) + '\n' });
}

/** Strictly after the checkpoint in (createdAt, id) order. */
export function isAfterCheckpoint(record: Pick<MemoryRecord, 'createdAt' | 'id'>, checkpoint: LayerCheckpoint): boolean {
  if (checkpoint.lastCreatedAt === null) return true;
  if (record.createdAt !== checkpoint.lastCreatedAt) return record.createdAt > checkpoint.lastCreatedAt;
  return record.id > (checkpoint.lastId ?? '');
}
