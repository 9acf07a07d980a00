/**
 * Reads one session's messages from the L0 capture log (`<home>/conversations/YYYY-MM-DD.jsonl`,
 * already cleaned and redacted at capture). Files are streamed line by line and lines that cannot
 * mention the session are skipped before parsing, so a long log stays cheap to scan.
 */
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { L0Record } from '../../spec/conversation.js';
import type { JournalMessage } from './options.js';

const L0_DAY = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
/** A first flush looks this far back: a session being flushed is a recent one. */
export const L0_LOOKBACK_DAYS = 7;

export async function readL0Session(options: {
  home: string;
  sessionId: string;
  agentId?: string;
  /** First day file (UTC `YYYY-MM-DD`) to read; earlier files are ignored. */
  fromDay: string;
  abortSignal?: AbortSignal;
}): Promise<JournalMessage[]> {
  const dir = join(options.home, 'conversations');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => L0_DAY.exec(n) !== null && n.slice(0, 10) >= options.fromDay).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const needle = JSON.stringify(options.sessionId);
  const byId = new Map<string, JournalMessage>();
  for (const name of names) {
    options.abortSignal?.throwIfAborted();
    const lines = createInterface({ input: createReadStream(join(dir, name), { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const raw of lines) {
      if (!raw.includes(needle)) continue;
      let record: Partial<L0Record>;
      try {
        record = JSON.parse(raw) as Partial<L0Record>;
      } catch {
        continue; // a torn last line is completed by the next capture run
      }
      if (record.sessionId !== options.sessionId || typeof record.id !== 'string' || typeof record.content !== 'string') continue;
      if (options.agentId && record.agentId !== options.agentId) continue;
      if (record.role !== 'user' && record.role !== 'assistant') continue;
      if (!byId.has(record.id)) {
        byId.set(record.id, { id: record.id, role: record.role, text: record.content, timestamp: typeof record.timestamp === 'number' ? record.timestamp : 0 });
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.timestamp - b.timestamp);
}

export function lookbackDay(now: Date, days = L0_LOOKBACK_DAYS): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
