import { join } from 'node:path';
import { StorageError } from '../errors/index.js';
import type { ConversationHost } from '../spec/conversation.js';
import { withFileLock } from '../util/file-lock.js';
import { isObject } from './readers/common.js';
import { readJsonFile, writeFileDurable } from '../util/fs-util.js';

/**
 * Per-file read positions with two-phase commit. A run first *stages* a batch (pending offset and
 * batch id) durably, then writes its messages to L0, then *commits* (committed = pending). A
 * pending batch found on load means a run died between the two: the batch is read again from
 * `committed`, and L0's entry-id dedupe makes that harmless.
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Fingerprint of the first `headLen` bytes: a changed head means the file was rewritten. */
  headHash: string;
  headLen: number;
}

export interface PendingBatch {
  batchId: string;
  /** Planned end of the batch (the read stops at the last complete line at or after it). */
  offset: number;
  stagedAt: string;
}

/**
 * The file ended inside a line at the last commit: read up to `scannedTo`. An unchanged file is
 * then not read again, and an oversized line is read on from `scannedTo`, never again from its start.
 */
export interface UnfinishedTail {
  scannedTo: number;
  oversized: boolean;
}

export interface FileCursor extends FileIdentity {
  host: ConversationHost;
  path: string;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  committed: number;
  pending: PendingBatch | null;
  /** The line starting at `committed` had no end yet; absent when the file ended at a line end. */
  tail?: UnfinishedTail;
  updatedAt: string;
}

interface CursorFile {
  version: 1;
  files: Record<string, FileCursor>;
}

export function cursorKey(host: ConversationHost, path: string): string {
  return `${host}:${path}`;
}

export class CursorStore {
  readonly path: string;
  private readonly lockPath: string;

  constructor(options: { home: string }) {
    this.path = join(options.home, 'capture', 'cursors.json');
    this.lockPath = join(options.home, 'capture', 'cursors.lock');
  }

  async load(): Promise<Record<string, FileCursor>> {
    return (await this.read()).files;
  }

  async get(key: string): Promise<FileCursor | undefined> {
    return (await this.read()).files[key];
  }

  /** Stages a batch: the cursor (identity, committed) plus a pending offset, made durable first. */
  async stage(options: {
    key: string;
    cursor: Omit<FileCursor, 'pending' | 'updatedAt'>;
    pendingOffset: number;
    batchId: string;
  }): Promise<void> {
    await this.mutate((files) => {
      files[options.key] = {
        ...options.cursor,
        pending: { batchId: options.batchId, offset: options.pendingOffset, stagedAt: new Date().toISOString() },
        updatedAt: new Date().toISOString(),
      };
    });
  }

  /**
   * Commits a staged batch. If another run replaced the batch meanwhile, the further offset wins
   * (both runs wrote through the same deduped L0, so neither loses messages).
   */
  async commit(options: { key: string; batchId: string; offset: number; identity: FileIdentity; tail?: UnfinishedTail }): Promise<void> {
    await this.mutate((files) => {
      const current = files[options.key];
      if (!current) return;
      const ours = current.pending?.batchId === options.batchId;
      if (!ours && current.committed >= options.offset) return;
      const next: FileCursor = {
        ...current,
        ...options.identity,
        committed: options.offset,
        pending: ours ? null : current.pending,
        updatedAt: new Date().toISOString(),
      };
      // A tail belongs to the offset it was read from: a commit without one clears it.
      if (options.tail) next.tail = options.tail;
      else delete next.tail;
      files[options.key] = next;
    });
  }

  /** Commits one batch and stages the next in a single durable write (long files are read in several batches). */
  async advance(options: { key: string; batchId: string; offset: number; nextBatchId: string; nextPendingOffset: number }): Promise<void> {
    await this.mutate((files) => {
      const current = files[options.key];
      if (!current || current.pending?.batchId !== options.batchId) return;
      const { tail: _stale, ...rest } = current; // a tail belongs to the old offset
      files[options.key] = {
        ...rest,
        committed: options.offset,
        pending: { batchId: options.nextBatchId, offset: options.nextPendingOffset, stagedAt: new Date().toISOString() },
        updatedAt: new Date().toISOString(),
      };
    });
  }

  /** Writes a cursor with nothing pending (`--from-now`, or recording a file's identity). */
  async put(options: { key: string; cursor: Omit<FileCursor, 'pending' | 'updatedAt'> }): Promise<void> {
    await this.mutate((files) => {
      files[options.key] = { ...options.cursor, pending: null, updatedAt: new Date().toISOString() };
    });
  }

  /** Removes cursors (all when `keys` is omitted): the next ingest re-reads those files from the start. */
  async reset(options: { keys?: string[] } = {}): Promise<number> {
    let removed = 0;
    await this.mutate((files) => {
      for (const key of options.keys ?? Object.keys(files)) {
        if (key in files) {
          delete files[key];
          removed += 1;
        }
      }
    });
    return removed;
  }

  private async mutate(fn: (files: Record<string, FileCursor>) => void): Promise<void> {
    await withFileLock({ path: this.lockPath }, async () => {
      const state = await this.read();
      fn(state.files);
      await writeFileDurable(this.path, `${JSON.stringify(state)}\n`);
    });
  }

  private async read(): Promise<CursorFile> {
    let data: unknown;
    try {
      data = await readJsonFile(this.path);
    } catch (error) {
      throw new StorageError({
        message: `Cannot read the capture cursors at ${this.path}: ${(error as Error).message}. Fix or delete the file (the next ingest then re-reads every transcript; L0 dedupe prevents duplicates).`,
        cause: error,
      });
    }
    if (data === undefined) return { version: 1, files: {} };
    if (!isObject(data) || !isObject(data.files)) {
      throw new StorageError({
        message: `The capture cursor file ${this.path} is not a cursor file. Delete it to re-read all transcripts (L0 dedupe prevents duplicates).`,
      });
    }
    return { version: 1, files: data.files as Record<string, FileCursor> };
  }
}
