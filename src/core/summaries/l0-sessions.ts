/**
 * Reads the L0 log (`<home>/conversations/YYYY-MM-DD.jsonl`) grouped per agent and session key.
 * Summaries keep no byte cursor: what is done is the set of message keys inside level-1 summaries,
 * so a message that arrives late (an older timestamp written to a newer file) is simply picked up
 * by the next chunk instead of being skipped.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { L0Record } from '../../spec/conversation.js';
import { messageKey } from '../distill/l0-source.js';
import { estimateTokens } from '../recall/tokens.js';

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

export interface SessionMessage {
  key: string;
  record: L0Record;
  tokens: number;
}

export interface SessionLog {
  agentId: string;
  sessionKey: string;
  /** Oldest first (timestamp, then position in the log). */
  messages: SessionMessage[];
}

function isRecord(v: unknown): v is L0Record {
  const r = v as Partial<L0Record> | null;
  return (
    typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.content === 'string' && typeof r.role === 'string' &&
    typeof r.agentId === 'string' && typeof r.sessionId === 'string' && typeof r.timestamp === 'number'
  );
}

/** The token cost of one message as the summariser sees it. */
export function messageTokens(record: Pick<L0Record, 'content'>): number {
  return estimateTokens(record.content);
}

export async function readSessionLogs(options: { home: string; agentId?: string; sessionKey?: string }): Promise<SessionLog[]> {
  const dir = join(options.home, 'conversations');
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => DAY_FILE.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const sessions = new Map<string, SessionLog & { seen: Set<string>; order: number[] }>();
  let position = 0;
  for (const name of names) {
    const text = await readFile(join(dir, name), 'utf8');
    const end = text.lastIndexOf('\n'); // a line still being written waits for the next run
    for (const line of text.slice(0, end + 1).split('\n')) {
      if (!line.trim()) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue; // malformed lines are the capture's problem; summaries skip them
      }
      if (!isRecord(parsed) || parsed.content.trim() === '') continue;
      const sessionKey = parsed.sessionKey || parsed.sessionId;
      if (options.agentId !== undefined && parsed.agentId !== options.agentId) continue;
      if (options.sessionKey !== undefined && sessionKey !== options.sessionKey) continue;
      const group = `${parsed.agentId}\u0000${sessionKey}`;
      let log = sessions.get(group);
      if (!log) {
        log = { agentId: parsed.agentId, sessionKey, messages: [], seen: new Set(), order: [] };
        sessions.set(group, log);
      }
      const key = messageKey(parsed);
      if (log.seen.has(key)) continue;
      log.seen.add(key);
      log.messages.push({ key, record: parsed, tokens: messageTokens(parsed) });
      log.order.push(position++);
    }
  }
  const out: SessionLog[] = [];
  for (const log of sessions.values()) {
    const indexed = log.messages.map((m, i) => ({ m, pos: log.order[i] ?? i }));
    indexed.sort((a, b) => a.m.record.timestamp - b.m.record.timestamp || a.pos - b.pos);
    out.push({ agentId: log.agentId, sessionKey: log.sessionKey, messages: indexed.map((x) => x.m) });
  }
  return out.sort((a, b) => a.agentId.localeCompare(b.agentId) || a.sessionKey.localeCompare(b.sessionKey));
}
