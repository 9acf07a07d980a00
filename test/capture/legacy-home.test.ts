/**
 * A home written before L0LogV1 and the watermark: day files, an old-layout conversation index
 * that holds only what `strata ingest` fed it (the hooks' captures never reached it), a v1 distill
 * cursor of byte offsets. Doctor reports the gap, `strata ingest --reindex` fills it, and the
 * distill cursor carries over without re-reading distilled messages.
 */
import '../../src/backends/store-lancedb/log-level.js';
import * as lancedb from '@lancedb/lancedb';
import * as arrow from 'apache-arrow';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileDistillProgress } from '../../src/core/distill/file-progress.js';
import { DistillCursor } from '../../src/core/distill/l0-source.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { runCli, tempHome } from '../support/run-cli.js';
import { l0Of } from './helpers.js';

const DAY1 = '2026-11-20';
const DAY2 = '2026-11-21';

function rec(i: number, day: string, content: string): L0Record {
  return {
    sessionKey: 'agent:main:main',
    sessionId: 's1',
    agentId: 'main',
    host: i < 3 ? 'openclaw' : 'live',
    id: `m${i}`,
    role: 'user',
    content,
    timestamp: Date.parse(`${day}T10:00:0${i}Z`),
    recordedAt: `${day}T10:00:0${i}.000Z`,
  };
}

const RECORDS = [
  rec(0, DAY1, 'the release train leaves on thursdays'),
  rec(1, DAY1, 'the staging cluster runs in oslo'),
  rec(2, DAY1, 'the on-call phone is orange'),
  rec(3, DAY2, 'captured by the hook: the backup bucket is called marmalade'),
  rec(4, DAY2, 'captured by the hook: the vpn needs a yubikey'),
];

/** The conversation index as the old code wrote it: table `conversations`, meta without a schema version. */
async function writeOldIndex(dir: string, records: L0Record[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const utf8 = (n: string) => new arrow.Field(n, new arrow.Utf8(), false);
  const schema = new arrow.Schema([
    utf8('row_key'),
    utf8('session_key'),
    utf8('session_id'),
    utf8('agent_id'),
    utf8('host'),
    utf8('entry_id'),
    utf8('role'),
    utf8('content'),
    new arrow.Field('timestamp_ms', new arrow.Float64(), false),
    utf8('recorded_at'),
    new arrow.Field('embedded', new arrow.Bool(), false),
  ]);
  const db = await lancedb.connect(dir);
  const rows = records.map((r) => ({
    row_key: JSON.stringify([r.host, r.agentId, r.sessionId, r.id]),
    session_key: r.sessionKey,
    session_id: r.sessionId,
    agent_id: r.agentId,
    host: r.host,
    entry_id: r.id,
    role: r.role,
    content: r.content,
    timestamp_ms: r.timestamp,
    recorded_at: r.recordedAt,
    embedded: true,
  }));
  const table = await db.createTable('conversations', lancedb.makeArrowTable(rows, { schema }));
  table.close();
  db.close();
  await writeFile(join(dir, 'conversation-index.json'), JSON.stringify({ embedderId: 'none', dimensions: 0 }));
}

let home: string;
beforeEach(async () => {
  home = await tempHome();
  const dir = join(home, 'conversations');
  await mkdir(dir, { recursive: true });
  for (const day of [DAY1, DAY2]) {
    await writeFile(
      join(dir, `${day}.jsonl`),
      RECORDS.filter((r) => r.recordedAt.startsWith(day))
        .map((r) => JSON.stringify(r) + '\n')
        .join(''),
    );
  }
  // The old `strata ingest` fed the index; the hooks (records 3 and 4) never did.
  await writeOldIndex(join(dir, 'index'), RECORDS.slice(0, 3));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe('a home written before the L0 log interface', () => {
  it('doctor reports the L0 messages missing from the index; `ingest --reindex` indexes them', async () => {
    const before = await runCli(['--home', home, 'doctor', '--json']);
    expect(before.code).toBe(1);
    const check = (JSON.parse(before.stdout) as { checks: Array<{ name: string; ok: boolean; detail: string }> }).checks.find(
      (c) => c.name === 'conversations',
    );
    expect(check).toMatchObject({ ok: false });
    expect(check!.detail).toMatch(/5 L0 messages missing from the index: run `strata ingest --reindex`/);

    const reindex = await runCli([
      '--home',
      home,
      'ingest',
      '--source',
      'jsonl',
      '--path',
      join(home, 'none'),
      '--reindex',
      '--no-embed',
      '--json',
    ]);
    expect(reindex.code, reindex.stderr).toBe(0);
    const out = JSON.parse(reindex.stdout) as { index: Record<string, unknown>; reindexed: Record<string, unknown> };
    // Any capture run catches the index up: the old layout is dropped and rebuilt from the log.
    expect(out.index).toMatchObject({ rebuilt: true, read: 5, inserted: 5, done: true });
    expect(out.reindexed).toMatchObject({ read: 5, inserted: 0, updated: 0 });

    const after = await runCli(['--home', home, 'doctor', '--json']);
    expect(JSON.parse(after.stdout).checks.find((c: { name: string }) => c.name === 'conversations')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('5 L0 messages, 5 indexed'),
    });
    const strata = await Strata.open({ home });
    try {
      // The turn that says it first (its neighbours are found too, by their index text).
      expect((await strata.searchConversations({ query: 'marmalade', limit: 3 })).map((h) => h.record.id)[0]).toBe('m3');
      expect((await strata.searchConversations({ query: 'oslo', limit: 3 })).map((h) => h.record.id)[0]).toBe('m1');
    } finally {
      await strata.close();
    }
  }, 90_000);

  it('a v1 distill cursor (byte offsets per day file) carries over: only undistilled messages are read again', async () => {
    const day1 = await readFile(join(home, 'conversations', `${DAY1}.jsonl`), 'utf8');
    const firstLine = Buffer.byteLength(day1.split('\n')[0]! + '\n');
    // Day 1: only its first message distilled by offset, its third by key; day 2: fully distilled.
    const day2Size = Buffer.byteLength(await readFile(join(home, 'conversations', `${DAY2}.jsonl`), 'utf8'));
    await mkdir(join(home, 'distill'), { recursive: true });
    await writeFile(
      join(home, 'distill', 'state.json'),
      JSON.stringify({ version: 1, files: { [`${DAY1}.jsonl`]: firstLine, [`${DAY2}.jsonl`]: day2Size }, done: ['openclaw|main|s1|m2'] }),
    );
    const cursor = new DistillCursor({ progress: new FileDistillProgress({ home }), log: l0Of(home) });
    await cursor.load();
    expect((await cursor.readPending()).map((m) => m.record.id)).toEqual(['m1']);
    await cursor.commit({ keys: ['openclaw|main|s1|m1'] });
    const next = new DistillCursor({ progress: new FileDistillProgress({ home }), log: l0Of(home) });
    await next.load();
    expect(await next.readPending()).toEqual([]);
    expect(JSON.parse(await readFile(join(home, 'distill', 'state.json'), 'utf8'))).toMatchObject({ version: 2, done: [] });
  });
});
