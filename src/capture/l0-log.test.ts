import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { L0Record } from '../spec/conversation.js';
import { readL0, tempDir } from '../../test/capture/helpers.js';
import { L0Log } from './l0-log.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function rec(i: number, extra: Partial<L0Record> = {}): L0Record {
  return {
    sessionKey: 'k', sessionId: 's', agentId: 'a', host: 'jsonl', id: `id${i}`, role: 'user', content: `text ${i}`, timestamp: 1000 + i,
    recordedAt: '2026-11-21T00:00:00.000Z', ...extra,
  };
}

describe('L0Log', () => {
  it('appends to the UTC day file and drops records seen before by entry id or by content', async () => {
    const log = new L0Log({ home: tmp.dir });
    const now = new Date('2026-11-21T23:59:00Z');
    expect((await log.append({ records: [rec(1), rec(2), rec(1)], now })).written).toBe(2);
    const again = await log.append({ records: [rec(1), rec(3), rec(2, { id: 'renumbered' })], now });
    expect(again).toMatchObject({ written: 1, duplicates: 2 });
    expect(readdirSync(join(tmp.dir, 'conversations')).filter((n) => n.endsWith('.jsonl'))).toEqual(['2026-11-21.jsonl']);
    // Same entry id in another session is a different message.
    expect((await log.append({ records: [rec(1, { sessionId: 'other' })], now })).written).toBe(1);
    expect(await readL0(tmp.dir)).toHaveLength(4);
  });

  it('persists the seen index: a fresh instance still dedupes', async () => {
    await new L0Log({ home: tmp.dir }).append({ records: [rec(1), rec(2)] });
    const res = await new L0Log({ home: tmp.dir }).append({ records: [rec(1), rec(2), rec(3)] });
    expect(res).toMatchObject({ written: 1, duplicates: 2 });
  });

  it('recovers from a crash mid-append: cuts a torn line and indexes records written before the index', async () => {
    const log = new L0Log({ home: tmp.dir });
    const now = new Date('2026-11-21T10:00:00Z');
    await log.append({ records: [rec(1)], now });
    const day = join(tmp.dir, 'conversations', '2026-11-21.jsonl');
    // A crash after the log append but before the fingerprints: record 2 is in the log only,
    // followed by a torn half line.
    appendFileSync(day, `${JSON.stringify(rec(2))}\n{"sessionKey":"k","sess`);
    rmSync(join(tmp.dir, 'conversations', '.seen'), { recursive: true });
    const fresh = new L0Log({ home: tmp.dir });
    const res = await fresh.append({ records: [rec(1), rec(2), rec(3)], now });
    expect(res).toMatchObject({ written: 1, duplicates: 2 });
    const lines = readFileSync(day, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as L0Record).id)).toEqual(['id1', 'id2', 'id3']);
  });

  it('a failed append raises a retryable StorageError and forgets the batch, so a retry writes it', async () => {
    const log = new L0Log({ home: tmp.dir });
    const now = new Date('2026-11-21T10:00:00Z');
    const day = join(tmp.dir, 'conversations', '2026-11-21.jsonl');
    mkdirSync(day, { recursive: true }); // the day file cannot be opened for append
    await expect(log.append({ records: [rec(1)], now })).rejects.toMatchObject({ code: 'STORAGE', isRetryable: true });
    rmSync(day, { recursive: true });
    expect((await log.append({ records: [rec(1)], now })).written).toBe(1);
  });

  it('dry run reports without writing or remembering', async () => {
    const log = new L0Log({ home: tmp.dir });
    expect((await log.append({ records: [rec(1)], dryRun: true })).written).toBe(1);
    expect((await log.append({ records: [rec(1)] })).written).toBe(1);
  });
});
