import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { withFileLock } from '../../util/file-lock.js';
import { newId } from '../write/ids.js';
import { redactMemoryRecord, redactText } from '../write/redact-record.js';

/**
 * The memory history log: every change to a memory (create, update, merge, supersede, forget,
 * revert) as one JSONL line under `<home>/history/YYYY-MM.jsonl`, independent of the store so a
 * rebuilt or re-embedded store keeps its history. Appends happen under a file lock, one write per
 * batch, so concurrent processes never interleave partial lines; readers skip a torn last line.
 */
export const HISTORY_ACTIONS = ['create', 'update', 'merge', 'supersede', 'keep-both', 'forget', 'revert'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** Who made the change: `cli`, `distill`, `mcp`, `api`, a host name, ... */
export type HistoryActor = string;

/** What the memory looks like after the change (null when it no longer exists). */
export interface HistoryNext {
  text: string;
  scope: string;
  category: string;
  validTo: string | null;
  supersedes: string | null;
  supersededBy: string | null;
}

/** Another memory the same change touched (e.g. the predecessor of a supersede). */
export interface HistoryRelated {
  id: string;
  /** The full record before the change; null when the change created it. */
  previous: MemoryRecord | null;
  next: HistoryNext | null;
}

export interface HistoryEntry {
  /** Id of this entry (ULID, sortable). */
  entryId: string;
  /** The memory the change is about. */
  id: string;
  at: string;
  actor: HistoryActor;
  action: HistoryAction;
  reason: string;
  /** The full record before the change; null when the change created it. */
  previous: MemoryRecord | null;
  next: HistoryNext | null;
  related?: HistoryRelated[];
  /** For `revert`: the entry that was undone. */
  reverts?: string;
}

export type HistoryEntryInput = Omit<HistoryEntry, 'entryId' | 'at'> & { at?: string };

export function summarize(record: MemoryRecord | null | undefined): HistoryNext | null {
  if (!record) return null;
  return {
    text: record.text,
    scope: record.scope,
    category: record.category,
    validTo: record.validTo,
    supersedes: record.supersedes,
    supersededBy: record.supersededBy,
  };
}

/** Drops the vector (and any other extra field) so history lines stay small. */
export function plainRecord(record: MemoryRecord & { vector?: unknown }): MemoryRecord {
  const { vector: _vector, ...rest } = record;
  return rest;
}

const MONTH_FILE = /^\d{4}-\d{2}\.jsonl$/;

const redactNext = (next: HistoryNext | null): HistoryNext | null => (next ? { ...next, text: redactText(next.text) } : null);
const redactPrevious = (record: MemoryRecord | null): MemoryRecord | null => (record ? redactMemoryRecord(record) : null);

/** Every stored string of an entry redacted: the records before and after, the reason (an LLM may write it). */
export function redactHistoryEntry(entry: HistoryEntry): HistoryEntry {
  return {
    ...entry,
    actor: redactText(entry.actor),
    reason: redactText(entry.reason),
    previous: redactPrevious(entry.previous),
    next: redactNext(entry.next),
    ...(entry.related ? { related: entry.related.map((r) => ({ ...r, previous: redactPrevious(r.previous), next: redactNext(r.next) })) } : {}),
  };
}

export class HistoryLog {
  readonly dir: string;
  private readonly lockPath: string;
  private readonly redact: boolean;

  /** `redact` (default true, config `write.redactSecrets`): entries are redacted before they are written. */
  constructor(options: { home: string; redact?: boolean }) {
    this.dir = join(options.home, 'history');
    this.lockPath = join(this.dir, '.lock');
    this.redact = options.redact ?? true;
  }

  /** Appends entries (one line each) in one write under the history lock; returns them stamped. */
  async append(options: { entries: HistoryEntryInput[]; now?: Date }): Promise<HistoryEntry[]> {
    if (options.entries.length === 0) return [];
    const at = (options.now ?? new Date()).toISOString();
    const stamped = options.entries
      .map((e): HistoryEntry => ({ entryId: newId(), ...e, at: e.at ?? at }))
      .map((e) => (this.redact ? redactHistoryEntry(e) : e));
    const file = join(this.dir, `${at.slice(0, 7)}.jsonl`);
    await mkdir(this.dir, { recursive: true });
    await withFileLock({ path: this.lockPath }, async () => {
      await appendFile(file, stamped.map((e) => JSON.stringify(e)).join('\n') + '\n', 'utf8');
    });
    return stamped;
  }

  /** Every entry about `id` (as the subject or a related memory), oldest first. */
  async historyOf(options: { id: string }): Promise<HistoryEntry[]> {
    const id = options.id.toUpperCase();
    const out: HistoryEntry[] = [];
    for await (const entry of this.entries()) {
      if (entry.id === id || entry.related?.some((r) => r.id === id)) out.push(entry);
    }
    return out.sort((a, b) => (a.at === b.at ? a.entryId.localeCompare(b.entryId) : a.at.localeCompare(b.at)));
  }

  /** Streams every entry in file order. */
  async *entries(): AsyncGenerator<HistoryEntry> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => MONTH_FILE.test(n)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const text = await readFile(join(this.dir, name), 'utf8');
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        try {
          const entry = JSON.parse(line) as HistoryEntry;
          if (typeof entry.id === 'string' && typeof entry.action === 'string') yield entry;
        } catch {
          // A torn last line from a crash mid-append.
        }
      }
    }
  }
}
