/**
 * Reads the L0 log grouped per agent and session key. Summaries keep no position of their own:
 * what is done is the set of message keys inside level-1 summaries, so a message that arrives
 * late (an older timestamp recorded later) is simply picked up by the next chunk instead of being
 * skipped.
 */
import type { L0Record } from '../../spec/conversation.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import { messageKey } from '../distill/l0-source.js';
import { estimateTokens } from '../recall/tokens.js';

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

/** The token cost of one message as the summariser sees it. */
export function messageTokens(record: Pick<L0Record, 'content'>): number {
  return estimateTokens(record.content);
}

export async function readSessionLogs(options: {
  log: L0LogV1;
  agentId?: string;
  sessionKey?: string;
  abortSignal?: AbortSignal;
}): Promise<SessionLog[]> {
  const entries = await options.log.readSession({
    agentId: options.agentId,
    sessionKey: options.sessionKey,
    abortSignal: options.abortSignal,
  });
  const sessions = new Map<string, SessionLog & { seen: Set<string>; order: number[] }>();
  let position = 0;
  for (const { record } of entries) {
    if (record.content.trim() === '') continue;
    const sessionKey = record.sessionKey || record.sessionId;
    const group = `${record.agentId}\u0000${sessionKey}`;
    let log = sessions.get(group);
    if (!log) {
      log = { agentId: record.agentId, sessionKey, messages: [], seen: new Set(), order: [] };
      sessions.set(group, log);
    }
    const key = messageKey(record);
    if (log.seen.has(key)) continue;
    log.seen.add(key);
    log.messages.push({ key, record, tokens: messageTokens(record) });
    log.order.push(position++);
  }
  const out: SessionLog[] = [];
  for (const log of sessions.values()) {
    const indexed = log.messages.map((m, i) => ({ m, pos: log.order[i] ?? i }));
    indexed.sort((a, b) => a.m.record.timestamp - b.m.record.timestamp || a.pos - b.pos);
    out.push({ agentId: log.agentId, sessionKey: log.sessionKey, messages: indexed.map((x) => x.m) });
  }
  return out.sort((a, b) => a.agentId.localeCompare(b.agentId) || a.sessionKey.localeCompare(b.sessionKey));
}
