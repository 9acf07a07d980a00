import type { ConversationHost } from '../spec/conversation.js';
import { CursorStore } from './cursor-store.js';
import { L0Log } from './l0-log.js';
import { SqliteCursorStore } from './sqlite/openclaw-sqlite.js';

/** Read-only views and resets behind `strata sessions` and `strata cursor show|reset`. */
export interface SessionSummary {
  host: ConversationHost;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  messages: number;
  firstTimestamp: number;
  lastTimestamp: number;
  lastRecordedAt: string;
}

/** Sessions in the L0 log, most recently active first. Streams the log (memory: one entry per session). */
export async function listSessions(options: { home: string; agentId?: string; host?: ConversationHost }): Promise<SessionSummary[]> {
  const sessions = new Map<string, SessionSummary>();
  for await (const r of new L0Log({ home: options.home }).records()) {
    if ((options.agentId && r.agentId !== options.agentId) || (options.host && r.host !== options.host)) continue;
    const key = JSON.stringify([r.host, r.agentId, r.sessionKey, r.sessionId]);
    const s = sessions.get(key);
    if (!s) {
      sessions.set(key, {
        host: r.host, agentId: r.agentId, sessionKey: r.sessionKey, sessionId: r.sessionId, messages: 1,
        firstTimestamp: r.timestamp, lastTimestamp: r.timestamp, lastRecordedAt: r.recordedAt,
      });
      continue;
    }
    s.messages += 1;
    s.firstTimestamp = Math.min(s.firstTimestamp, r.timestamp);
    s.lastTimestamp = Math.max(s.lastTimestamp, r.timestamp);
    if (r.recordedAt > s.lastRecordedAt) s.lastRecordedAt = r.recordedAt;
  }
  return [...sessions.values()].sort((a, b) => b.lastTimestamp - a.lastTimestamp);
}

export interface CursorInfo {
  kind: 'file' | 'sqlite';
  path: string;
  host: ConversationHost;
  agentId?: string;
  /** File cursors: committed byte offset. SQLite: number of sessions tracked. */
  committed: number;
  size?: number;
  pending: boolean;
  updatedAt?: string;
}

export async function showCursors(options: { home: string }): Promise<CursorInfo[]> {
  const out: CursorInfo[] = [];
  for (const c of Object.values(await new CursorStore({ home: options.home }).load())) {
    out.push({ kind: 'file', path: c.path, host: c.host, agentId: c.agentId, committed: c.committed, size: c.size, pending: c.pending !== null, updatedAt: c.updatedAt });
  }
  for (const [path, c] of Object.entries(await new SqliteCursorStore(options.home).load())) {
    out.push({ kind: 'sqlite', path, host: 'openclaw', committed: Object.keys(c.sessions).length, pending: c.pending !== null });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Forgets cursors (all, or those whose path starts with `pathPrefix`): the next ingest re-reads
 * those transcripts from the start. L0 dedupe keeps that from writing anything twice.
 */
export async function resetCursors(options: { home: string; pathPrefix?: string }): Promise<{ removed: number }> {
  const match = (path: string) => options.pathPrefix === undefined || path.startsWith(options.pathPrefix);
  const store = new CursorStore({ home: options.home });
  const keys = Object.entries(await store.load()).filter(([, c]) => match(c.path)).map(([k]) => k);
  const files = await store.reset({ keys });
  const sqlite = await new SqliteCursorStore(options.home).reset(match);
  return { removed: files + sqlite };
}
