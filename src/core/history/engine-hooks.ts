import type { MemoryRecord } from '../../spec/memory-record.js';
import type { HistoryActor, HistoryEntry, HistoryLog } from './history-log.js';
import { plainRecord, summarize } from './history-log.js';

/**
 * What the engine's own write paths log, so `strata history` / `strata revert` cover manual
 * changes too. Call after the store write succeeded (a failed write logs nothing). `previous`
 * may be a stored row: its vector is dropped.
 */
export function recordCreate(options: {
  history: HistoryLog;
  actor: HistoryActor;
  records: MemoryRecord[];
  reason?: string;
  now?: Date;
}): Promise<HistoryEntry[]> {
  return options.history.append({
    entries: options.records.map((r) => ({
      id: r.id,
      actor: options.actor,
      action: 'create' as const,
      reason: options.reason ?? 'added',
      previous: null,
      next: summarize(r),
    })),
    now: options.now,
  });
}

export function recordUpdate(options: {
  history: HistoryLog;
  actor: HistoryActor;
  previous: MemoryRecord;
  next: MemoryRecord;
  reason?: string;
  now?: Date;
}): Promise<HistoryEntry[]> {
  return options.history.append({
    entries: [
      {
        id: options.next.id,
        actor: options.actor,
        action: 'update',
        reason: options.reason ?? 'updated',
        previous: plainRecord(options.previous),
        next: summarize(options.next),
      },
    ],
    now: options.now,
  });
}

export function recordForget(options: {
  history: HistoryLog;
  actor: HistoryActor;
  records: MemoryRecord[];
  reason?: string;
  now?: Date;
}): Promise<HistoryEntry[]> {
  return options.history.append({
    entries: options.records.map((r) => ({
      id: r.id,
      actor: options.actor,
      action: 'forget' as const,
      reason: options.reason ?? 'forgotten',
      previous: plainRecord(r),
      next: null,
    })),
    now: options.now,
  });
}
