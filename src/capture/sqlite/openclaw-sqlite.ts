import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import type { Database, SqlJsStatic } from 'sql.js';
import type { L0Record } from '../../spec/conversation.js';
import { withFileLock } from '../../util/file-lock.js';
import type { Cleaner } from '../clean/index.js';
import { isNotFound, readJsonFile, writeFileDurable } from '../../util/fs-util.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import { isObject, listDir } from '../readers/common.js';
import { openClawStateDirs, parseOpenClawLine, uniqueRealPaths } from '../readers/openclaw.js';

/**
 * OpenClaw, SQLite era (2026.8+): `<state>/agents/<id>/agent/openclaw-agent.sqlite`, table
 * `transcript_events (session_id, seq, event_json | event_zstd)` holding the same pi lines as the
 * JSONL files. Read-only and incremental by (session_id, seq) with the same two-phase commit as
 * file cursors. sql.js (SQLite compiled to WebAssembly, no native install step) loads a snapshot of
 * the database file; rows still only in the `-wal` file are picked up once SQLite checkpoints them.
 */
export interface SqliteStore {
  path: string;
  agentId: string;
}

export interface StoreCursor {
  /** Last ingested seq per session id. */
  sessions: Record<string, number>;
  pending: { batchId: string; stagedAt: string; sessions: Record<string, number> } | null;
  signature: string;
}

export interface SqliteResult {
  outcome: 'read' | 'unchanged' | 'vanished' | 'from-now' | 'no-table';
  events: number;
  messages: number;
  written: number;
  duplicates: number;
  malformed: number;
  recoveredBatch: boolean;
}

export async function discoverOpenClawSqlite(options: {
  root?: string;
  agentId?: string;
  env?: Record<string, string | undefined>;
}): Promise<SqliteStore[]> {
  const roots = options.root ? [options.root] : await uniqueRealPaths(openClawStateDirs(options.env ?? process.env));
  const out: SqliteStore[] = [];
  for (const root of roots) {
    for (const agent of await listDir(join(root, 'agents'))) {
      if (!agent.isDir || (options.agentId && agent.name !== options.agentId)) continue;
      const path = join(root, 'agents', agent.name, 'agent', 'openclaw-agent.sqlite');
      if ((await listDir(join(root, 'agents', agent.name, 'agent'))).some((e) => e.isFile && e.name === 'openclaw-agent.sqlite')) {
        out.push({ path, agentId: agent.name });
      }
    }
  }
  return out;
}

let sqlPromise: Promise<SqlJsStatic> | undefined;
/** Loaded on first use: the WebAssembly module costs ~50 ms and is only needed for SQLite stores. */
async function sqlJs(): Promise<SqlJsStatic> {
  sqlPromise ??= import('sql.js').then((m) => m.default());
  return sqlPromise;
}

/** Content of one row: `event_json`, or `event_zstd` decompressed (schema 23+). */
async function rowText(json: unknown, zstd: unknown): Promise<string | undefined> {
  if (typeof json === 'string' && json.length > 0) return json;
  if (zstd instanceof Uint8Array && zstd.length > 0) {
    const { decompress } = await import('fzstd');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(decompress(zstd));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function tableColumns(db: Database, table: string): Set<string> {
  const res = db.exec(`PRAGMA table_info(${table})`);
  return new Set((res[0]?.values ?? []).map((row) => String(row[1])));
}

export class SqliteCursorStore {
  private readonly path: string;
  constructor(home: string) {
    this.path = join(home, 'capture', 'sqlite-cursors.json');
  }
  async load(): Promise<Record<string, StoreCursor>> {
    const data = await readJsonFile(this.path);
    return isObject(data) ? (data as Record<string, StoreCursor>) : {};
  }
  /** Removes the cursors of the stores `match` accepts; returns how many. */
  async reset(match: (path: string) => boolean): Promise<number> {
    return withFileLock({ path: `${this.path}.lock` }, async () => {
      const all = await this.load();
      const doomed = Object.keys(all).filter(match);
      for (const key of doomed) delete all[key];
      if (doomed.length > 0) await writeFileDurable(this.path, JSON.stringify(all));
      return doomed.length;
    });
  }
  async get(key: string): Promise<StoreCursor | undefined> {
    const data = await readJsonFile(this.path);
    return isObject(data) && isObject(data[key]) ? (data[key] as unknown as StoreCursor) : undefined;
  }
  async set(key: string, cursor: StoreCursor): Promise<void> {
    await withFileLock({ path: `${this.path}.lock` }, async () => {
      const data = await readJsonFile(this.path);
      const all = isObject(data) ? data : {};
      all[key] = cursor;
      await writeFileDurable(this.path, JSON.stringify(all));
    });
  }
}

export interface SqliteIngestContext {
  home: string;
  log: L0LogV1;
  cleaner: Cleaner;
  fromNow: boolean;
  dryRun: boolean;
  maxEvents: number;
  onRecords?: (records: L0Record[]) => Promise<void> | void;
}

export async function ingestOpenClawSqlite(ctx: SqliteIngestContext, store: SqliteStore): Promise<SqliteResult> {
  const result: SqliteResult = { outcome: 'read', events: 0, messages: 0, written: 0, duplicates: 0, malformed: 0, recoveredBatch: false };
  let signature: string;
  let bytes: Buffer;
  try {
    const st = await stat(store.path);
    const wal = await stat(`${store.path}-wal`).catch(() => undefined);
    signature = `${st.ino}:${st.size}:${st.mtimeMs}:${wal?.size ?? 0}:${wal?.mtimeMs ?? 0}`;
    const cursors = new SqliteCursorStore(ctx.home);
    const cursor = await cursors.get(store.path);
    if (cursor && cursor.signature === signature && !cursor.pending) return { ...result, outcome: 'unchanged' };
    bytes = await readFile(store.path);
  } catch (error) {
    if (isNotFound(error)) return { ...result, outcome: 'vanished' };
    throw error;
  }
  const SQL = await sqlJs();
  const db = new SQL.Database(bytes);
  try {
    const columns = tableColumns(db, 'transcript_events');
    if (!columns.has('session_id') || !columns.has('seq')) return { ...result, outcome: 'no-table' };
    return await readStore(ctx, store, db, columns, signature, result);
  } finally {
    db.close();
  }
}

async function readStore(
  ctx: SqliteIngestContext,
  store: SqliteStore,
  db: Database,
  columns: Set<string>,
  signature: string,
  result: SqliteResult,
): Promise<SqliteResult> {
  const cursors = new SqliteCursorStore(ctx.home);
  const cursor = await cursors.get(store.path);
  result.recoveredBatch = cursor?.pending != null;
  const keys = new Map<string, string>();
  if (tableColumns(db, 'session_windows').has('session_key')) {
    for (const row of db.exec('SELECT session_id, session_key FROM session_windows')[0]?.values ?? [])
      keys.set(String(row[0]), String(row[1]));
  }
  const maxSeq: Record<string, number> = {};
  for (const row of db.exec('SELECT session_id, MAX(seq) FROM transcript_events GROUP BY session_id')[0]?.values ?? []) {
    maxSeq[String(row[0])] = Number(row[1]);
  }
  if (!cursor && ctx.fromNow) {
    if (!ctx.dryRun) await cursors.set(store.path, { sessions: maxSeq, pending: null, signature });
    return { ...result, outcome: 'from-now' };
  }
  const committed = { ...(cursor?.sessions ?? {}) };
  // A session whose rows went backwards was rebuilt: read it again (L0 dedupe keeps it exact).
  for (const [sid, seq] of Object.entries(committed)) if ((maxSeq[sid] ?? 0) < seq) committed[sid] = -Infinity;
  const batchId = ulid();
  if (!ctx.dryRun)
    await cursors.set(store.path, {
      sessions: cursor?.sessions ?? {},
      pending: { batchId, stagedAt: new Date().toISOString(), sessions: maxSeq },
      signature: cursor?.signature ?? '',
    });

  const select = `SELECT seq, ${columns.has('event_json') ? 'event_json' : 'NULL'}, ${columns.has('event_zstd') ? 'event_zstd' : 'NULL'} FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq`;
  const done: Record<string, number> = { ...(cursor?.sessions ?? {}) };
  let buffer: L0Record[] = [];
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const res = await ctx.log.append({ records: buffer, dryRun: ctx.dryRun });
    result.written += res.written;
    result.duplicates += res.duplicates;
    if (res.records.length > 0 && ctx.onRecords && !ctx.dryRun) await ctx.onRecords(res.records);
    buffer = [];
  };
  let capped = false;
  for (const [sid, max] of Object.entries(maxSeq)) {
    const from = committed[sid] ?? -Infinity;
    if (max <= from || capped) continue;
    const base = {
      host: 'openclaw' as const,
      agentId: store.agentId,
      sessionKey: keys.get(sid) ?? `agent:${store.agentId}:session:${sid}`,
      sessionId: sid,
    };
    const stmt = db.prepare(select);
    try {
      stmt.bind([sid, Number.isFinite(from) ? from : -1]);
      while (stmt.step()) {
        const [seq, json, zstd] = stmt.get();
        result.events += 1;
        const text = await rowText(json, zstd);
        const parsed = text === undefined ? undefined : parseOpenClawLine(base, text);
        if (!parsed || parsed.skipped === 'malformed') result.malformed += 1;
        const recordedAt = new Date();
        for (const m of parsed?.messages ?? []) {
          result.messages += 1;
          const cleaned = ctx.cleaner.clean(m);
          if (!cleaned.keep) continue;
          buffer.push({
            sessionKey: m.sessionKey,
            sessionId: m.sessionId,
            agentId: m.agentId,
            host: m.host,
            id: m.entryId,
            role: m.role,
            content: cleaned.text,
            timestamp: m.timestamp > 0 ? m.timestamp : recordedAt.getTime(),
            recordedAt: recordedAt.toISOString(),
          });
        }
        done[sid] = Number(seq);
        if (buffer.length >= 8_000) await flush();
        if (result.events >= ctx.maxEvents) {
          capped = true;
          break;
        }
      }
    } finally {
      stmt.free();
    }
  }
  await flush();
  // Capped runs keep the old signature so the next run reads on.
  if (!ctx.dryRun) await cursors.set(store.path, { sessions: done, pending: null, signature: capped ? '' : signature });
  return result;
}
