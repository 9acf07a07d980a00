import type { ConversationHost } from '../spec/conversation.js';
import { CursorStore } from './cursor-store.js';
import { SqliteCursorStore } from './sqlite/openclaw-sqlite.js';

/** Read-only views and resets behind `strata cursor show|reset` (sessions come from `L0LogV1.sessions`). */
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
    out.push({
      kind: 'file',
      path: c.path,
      host: c.host,
      agentId: c.agentId,
      committed: c.committed,
      size: c.size,
      pending: c.pending !== null,
      updatedAt: c.updatedAt,
    });
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
  const keys = Object.entries(await store.load())
    .filter(([, c]) => match(c.path))
    .map(([k]) => k);
  const files = await store.reset({ keys });
  const sqlite = await new SqliteCursorStore(options.home).reset(match);
  return { removed: files + sqlite };
}
