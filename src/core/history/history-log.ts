import type { HistoryEntry, HistoryLogV1, HistoryNext } from '../../spec/history-log.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { newId } from '../write/ids.js';
import { redactMemoryRecord, redactText } from '../write/redact-record.js';
import { JsonlHistoryStorage } from './jsonl-storage.js';

export {
  HISTORY_ACTIONS,
  type HistoryAction,
  type HistoryActor,
  type HistoryEntry,
  type HistoryNext,
  type HistoryRelated,
} from '../../spec/history-log.js';

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
    ...(entry.related
      ? { related: entry.related.map((r) => ({ ...r, previous: redactPrevious(r.previous), next: redactNext(r.next) })) }
      : {}),
  };
}

/**
 * The memory history log: stamps (ids, times) and redacts each change, then hands it to a
 * HistoryLogV1 storage: JSONL files under the home by default, PostgreSQL for a shared service.
 */
export class HistoryLog {
  readonly storage: HistoryLogV1;
  private readonly redact: boolean;

  /**
   * `storage` (wired from config); without it, JSONL files under `<home>/history`. `redact`
   * (default true, config `write.redactSecrets`): entries are redacted before they are stored.
   */
  constructor(options: { home?: string; storage?: HistoryLogV1; redact?: boolean }) {
    if (!options.storage && options.home === undefined) throw new TypeError('HistoryLog needs a storage or a home directory.');
    this.storage = options.storage ?? new JsonlHistoryStorage({ home: options.home! });
    this.redact = options.redact ?? true;
  }

  /** Appends entries in one storage call; returns them stamped. */
  async append(options: { entries: HistoryEntryInput[]; now?: Date }): Promise<HistoryEntry[]> {
    if (options.entries.length === 0) return [];
    const at = (options.now ?? new Date()).toISOString();
    const stamped = options.entries
      .map((e): HistoryEntry => ({ entryId: newId(), ...e, at: e.at ?? at }))
      .map((e) => (this.redact ? redactHistoryEntry(e) : e));
    await this.storage.append({ entries: stamped });
    return stamped;
  }

  /** Every entry about `id` (as the subject or a related memory), oldest first. */
  historyOf(options: { id: string }): Promise<HistoryEntry[]> {
    return this.storage.historyOf({ id: options.id.toUpperCase() });
  }

  /** Streams every entry in the order appended. */
  entries(): AsyncIterable<HistoryEntry> {
    return this.storage.entries();
  }
}
