/**
 * Reads one session's messages from the L0 log (already cleaned and redacted at capture) for a
 * journal flush: user and assistant turns, once each, oldest first.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import type { JournalMessage } from './options.js';

/** A first flush looks this far back: a session being flushed is a recent one. */
export const L0_LOOKBACK_DAYS = 7;

export async function readL0Session(options: {
  log: L0LogV1 | undefined;
  sessionId: string;
  agentId?: string;
  /** First UTC day (`YYYY-MM-DD`) whose recordings are read; earlier ones are ignored. */
  fromDay: string;
  abortSignal?: AbortSignal;
}): Promise<JournalMessage[]> {
  if (!options.log) {
    throw new InvalidArgumentError({
      argument: 'l0',
      message: "A journal flush without messages reads the L0 log: pass `l0` (Strata.flushJournal does) or the session's messages.",
    });
  }
  const entries = await options.log.readSession({
    sessionId: options.sessionId,
    agentId: options.agentId,
    recordedSince: options.fromDay,
    abortSignal: options.abortSignal,
  });
  const byId = new Map<string, JournalMessage>();
  for (const { record } of entries) {
    if (record.role !== 'user' && record.role !== 'assistant') continue;
    if (!byId.has(record.id)) byId.set(record.id, { id: record.id, role: record.role, text: record.content, timestamp: record.timestamp });
  }
  return [...byId.values()].sort((a, b) => a.timestamp - b.timestamp);
}

export function lookbackDay(now: Date, days = L0_LOOKBACK_DAYS): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
