/**
 * The per-session summary index (`index.json`). Levels: 0 = L0 messages, 1 = summaries of chunks
 * of messages, 2..maxLevel = merges of the level below. `sourceIds` of a level-1 entry are message
 * keys (`host|agent|session|id`, as in the distill cursor); of higher levels, summary ids.
 * Written atomically and only after the summary files it references exist, so a crash at any
 * point leaves an index whose every entry is complete (an unreferenced file is overwritten later).
 */
import { readFile } from 'node:fs/promises';
import { StorageError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import type { SummaryEntry, SummaryIndex } from '../../spec/summary-store.js';
import { redactDeep } from '../write/redact-record.js';

export type { SummaryEntry, SummaryIndex } from '../../spec/summary-store.js';

export function emptyIndex(options: { agentId: string; sessionKey: string }): SummaryIndex {
  return { version: 1, agentId: options.agentId, sessionKey: options.sessionKey, summaries: [], updatedAt: null };
}

export async function loadIndex(options: { path: string; agentId: string; sessionKey: string }): Promise<SummaryIndex> {
  let text: string;
  try {
    text = await readFile(options.path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyIndex(options);
    throw new StorageError({ message: `Cannot read the summary index ${options.path}: ${(error as Error).message}`, cause: error });
  }
  let parsed: Partial<SummaryIndex>;
  try {
    parsed = JSON.parse(text) as Partial<SummaryIndex>;
  } catch (error) {
    throw new StorageError({
      message: `The summary index ${options.path} is not valid JSON; move it aside to rebuild this session's summaries from the L0 log.`,
      cause: error,
    });
  }
  if (parsed.version !== 1 || !Array.isArray(parsed.summaries) || parsed.sessionKey !== options.sessionKey) {
    throw new StorageError({
      message: `The summary index ${options.path} has an unknown format or belongs to another session (${JSON.stringify(parsed.sessionKey)}); move it aside to rebuild.`,
    });
  }
  return {
    version: 1,
    agentId: options.agentId,
    sessionKey: options.sessionKey,
    summaries: parsed.summaries,
    updatedAt: parsed.updatedAt ?? null,
  };
}

export async function saveIndex(options: { path: string; index: SummaryIndex }): Promise<void> {
  await writeFileAtomic({ path: options.path, data: JSON.stringify(redactDeep(options.index), null, 1) + '\n' });
}

/** Unmerged summaries of one level, oldest first (entries are appended in time order). */
export function unmerged(index: SummaryIndex, level: number): SummaryEntry[] {
  return index.summaries.filter((s) => s.level === level && s.mergedInto === null);
}

function sequence(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1));
}

/**
 * The summaries that together cover everything summarised so far, oldest first: every unmerged
 * entry. Merges always take the oldest entries of a level, so higher levels come first; within a
 * level, creation order is history order (time ranges can overlap when a message arrived late).
 */
export function coverage(index: SummaryIndex): SummaryEntry[] {
  return index.summaries.filter((s) => s.mergedInto === null).sort((a, b) => b.level - a.level || sequence(a.id) - sequence(b.id));
}

export function nextId(index: SummaryIndex, level: number): string {
  const count = index.summaries.filter((s) => s.level === level).length;
  return `L${level}-${String(count + 1).padStart(4, '0')}`;
}

/** Keys of every message already inside a level-1 summary. */
export function summarisedKeys(index: SummaryIndex): Set<string> {
  const keys = new Set<string>();
  for (const s of index.summaries) if (s.level === 1) for (const k of s.sourceIds) keys.add(k);
  return keys;
}
