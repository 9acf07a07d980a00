import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestHome, readL0, tempDir } from './helpers.js';

interface ZstdFixture {
  events: Array<{ json: string; zstdBase64: string }>;
}
const ZSTD = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'zstd-events.json'), 'utf8')) as ZstdFixture;

let tmp: ReturnType<typeof tempDir>;
let home: string;
let root: string;
let dbPath: string;
beforeEach(() => {
  tmp = tempDir();
  home = join(tmp.dir, 'home');
  root = join(tmp.dir, 'state');
  mkdirSync(join(root, 'agents', 'main', 'agent'), { recursive: true });
  dbPath = join(root, 'agents', 'main', 'agent', 'openclaw-agent.sqlite');
});
afterEach(() => tmp.cleanup());

const user = (id: string, text: string, ts: number) =>
  JSON.stringify({
    type: 'message',
    id,
    parentId: null,
    timestamp: new Date(ts).toISOString(),
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: ts },
  });

type Row = [sessionId: string, seq: number, json: string | null, zstd: Uint8Array | null];

/** Writes a real SQLite file with the two tables the reader uses (schema 23+: event_zstd column). */
async function writeDb(rows: Row[], windows: Array<[string, string]> = [['s1', 'agent:main:main']]): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT,
    reason TEXT, created_at INTEGER, updated_at INTEGER) STRICT`);
  db.run(`CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, event_zstd BLOB,
    created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq)) STRICT`);
  for (const [sid, key] of windows) db.run('INSERT INTO session_windows VALUES (?, ?, NULL, ?, 0, 0)', [sid, key, 'initial']);
  for (const [sid, seq, json, zstd] of rows)
    db.run('INSERT INTO transcript_events VALUES (?, ?, ?, ?, ?)', [sid, seq, json, zstd, 1784538005000]);
  writeFileSync(dbPath, db.export());
  db.close();
}

const zstdRow = (i: number): Uint8Array => new Uint8Array(Buffer.from(ZSTD.events[i]!.zstdBase64, 'base64'));
const run = (extra: Parameters<typeof ingestHome>[0] extends infer O ? Partial<O> : never = {}) =>
  ingestHome({ home, sources: [{ kind: 'openclaw', root }], ...extra });

describe('OpenClaw SQLite-era reader', () => {
  it('reads event_json and zstd-compressed event_zstd rows with the session key from session_windows', async () => {
    const rows: Row[] = [
      [
        's1',
        1,
        JSON.stringify({ type: 'model_change', id: 'mc1', parentId: null, timestamp: '2026-07-20T09:00:00Z', provider: 'p', modelId: 'm' }),
        null,
      ],
      ['s1', 2, user('u1', 'openclaw registry conformance question', 1784883605000), null],
      ['s1', 3, null, zstdRow(0)],
      ['s1', 4, null, zstdRow(1)],
      ['s1', 5, null, new Uint8Array([1, 2, 3, 4])], // corrupt frame
      ['s1', 6, '{"type":"message",', null],
    ];
    await writeDb(rows);
    const s = await run();
    expect(s.errors).toEqual([]);
    expect(s.files).toMatchObject({ sqliteStores: 1, read: 1 });
    expect(s.skippedLines.malformed).toBe(2);
    const records = await readL0(home);
    expect(records.map((r) => [r.role, r.content])).toEqual([
      ['user', 'openclaw registry conformance question'],
      ['assistant', 'compressed answer about the registry'],
      ['user', 'compressed follow-up question'],
    ]);
    expect(records[0]).toMatchObject({ host: 'openclaw', agentId: 'main', sessionId: 's1', sessionKey: 'agent:main:main', id: 'u1' });
  });

  it('is incremental by (session, seq): a second run reads only new rows, across sessions', async () => {
    await writeDb([['s1', 1, user('a', 'first', 1), null]]);
    expect((await run()).messages.new).toBe(1);
    expect((await run()).files.unchanged).toBe(1);
    await writeDb([
      ['s1', 1, user('a', 'first', 1), null],
      ['s1', 2, user('b', 'second', 2), null],
      ['s2', 1, user('c', 'other session', 3), null],
    ]);
    const s = await run();
    expect(s.messages).toEqual({ parsed: 2, new: 2, duplicates: 0 });
    expect((await readL0(home)).map((r) => `${r.sessionKey}:${r.content}`)).toEqual([
      'agent:main:main:first',
      'agent:main:main:second',
      'agent:main:session:s2:other session',
    ]);
  });

  it('--from-now skips existing rows; a rebuilt session (seq went back) is re-read without duplicates', async () => {
    await writeDb([
      ['s1', 1, user('a', 'old', 1), null],
      ['s1', 2, user('b', 'old too', 2), null],
    ]);
    expect((await run({ fromNow: true })).files.startedFromNow).toBe(1);
    await writeDb([
      ['s1', 1, user('a', 'old', 1), null],
      ['s1', 2, user('b', 'old too', 2), null],
      ['s1', 3, user('c', 'new', 3), null],
    ]);
    expect((await run()).messages.new).toBe(1);
    await writeDb([
      ['s1', 1, user('c', 'new', 3), null],
      ['s1', 2, user('d', 'after rebuild', 4), null],
    ]);
    const s = await run();
    expect(s.messages).toMatchObject({ new: 1, duplicates: 1 });
    expect((await readL0(home)).map((r) => r.content)).toEqual(['new', 'after rebuild']);
  });

  it('never reads the distiller agent store and ignores a database without the table', async () => {
    mkdirSync(join(root, 'agents', 'strata-distiller', 'agent'), { recursive: true });
    const SQL = await initSqlJs();
    const empty = new SQL.Database();
    empty.run('CREATE TABLE other (x INTEGER)');
    writeFileSync(join(root, 'agents', 'strata-distiller', 'agent', 'openclaw-agent.sqlite'), empty.export());
    writeFileSync(dbPath, empty.export());
    empty.close();
    const s = await run();
    expect(s.errors).toEqual([]);
    expect(s.files).toMatchObject({ sqliteStores: 2, skippedAgent: 1 });
    expect(await readL0(home)).toEqual([]);
  });
});
