/**
 * Small JSON state files of the file journal store, updated read-modify-write under a lock so two
 * processes (a SessionEnd and a PreCompact hook firing together) never lose each other's update.
 */
import { readFile } from 'node:fs/promises';
import { StorageError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { JournalCompiledDay, JournalSessionProgress } from '../../spec/journal-store.js';
import { withFileLock } from '../../util/file-lock.js';
import { redactDeep } from '../write/redact-record.js';

/** Per-session progress: what the last flush covered, so the next one sends only what is new. */
export type SessionProgress = JournalSessionProgress;

export interface FlushState {
  version: 1;
  sessions: Record<string, SessionProgress>;
}

/** `.compile-state.json`: by day log file name (`YYYY-MM-DD.md`). */
export interface CompileState {
  version: 1;
  days: Record<string, JournalCompiledDay>;
}

export const emptyCompileState = (): CompileState => ({ version: 1, days: {} });

export async function readJson<T>(path: string, empty: () => T): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
    throw new StorageError({ message: `Cannot read ${path}: ${(error as Error).message}`, cause: error });
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    // Written atomically, so a bad file was edited by hand: say which one rather than guess.
    throw new StorageError({ message: `${path} is not valid JSON; fix or delete it (the journal rebuilds it).`, cause: error });
  }
}

export function emptyFlushState(): FlushState {
  return { version: 1, sessions: {} };
}

export async function readFlushState(path: string): Promise<FlushState> {
  const state = await readJson<FlushState>(path, emptyFlushState);
  return { version: 1, sessions: state.sessions ?? {} };
}

/** Applies `change` to the state file under `lockPath`; returns the new state. */
export async function updateJsonState<T>(options: {
  path: string;
  lockPath: string;
  empty: () => T;
  change: (state: T) => void;
}): Promise<T> {
  return withFileLock({ path: options.lockPath }, async () => {
    const state = await readJson(options.path, options.empty);
    options.change(state);
    await writeFileAtomic({ path: options.path, data: JSON.stringify(redactDeep(state), null, 2) + '\n' });
    return state;
  });
}
