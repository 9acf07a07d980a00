import { appendFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l0Record as rec, runL0LogContract } from '../../../test/contracts/l0-log-contract.js';
import { tempDir } from '../../../test/capture/helpers.js';
import type { L0Record } from '../../spec/conversation.js';
import { createJsonlL0Log } from './index.js';

runL0LogContract({
  name: 'jsonl',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-l0-'));
    return {
      log: createJsonlL0Log({ home }),
      open: async () => createJsonlL0Log({ home }),
      async tear() {
        const dir = join(home, 'conversations');
        const day = (await readdir(dir))
          .filter((n) => n.endsWith('.jsonl'))
          .sort()
          .at(-1)!;
        await appendFile(join(dir, day), '{"sessionKey":"agent:a:main","sess');
      },
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const at = (iso: string) => () => new Date(iso);

describe('JSONL L0 log', () => {
  it('appends to the UTC day file of the clock, and never to a day older than the newest file', async () => {
    await createJsonlL0Log({ home: tmp.dir, now: at('2026-11-21T23:59:00Z') }).append({ records: [rec(1)] });
    await createJsonlL0Log({ home: tmp.dir, now: at('2026-11-22T00:01:00Z') }).append({ records: [rec(2)] });
    // A clock set back must not write into an older file: positions would go backwards.
    const back = createJsonlL0Log({ home: tmp.dir, now: at('2026-11-01T00:00:00Z') });
    const { entries } = await back.append({ records: [rec(3)] });
    expect(readdirSync(join(tmp.dir, 'conversations')).filter((n) => n.endsWith('.jsonl'))).toEqual([
      '2026-11-21.jsonl',
      '2026-11-22.jsonl',
    ]);
    const all = await back.read();
    expect(all.entries.map((e) => e.record.id)).toEqual(['id1', 'id2', 'id3']);
    expect(entries[0]!.position > all.entries[1]!.position).toBe(true);
  });

  it('persists the seen index: a fresh instance still dedupes', async () => {
    await createJsonlL0Log({ home: tmp.dir }).append({ records: [rec(1), rec(2)] });
    expect(await createJsonlL0Log({ home: tmp.dir }).append({ records: [rec(1), rec(2), rec(3)] })).toMatchObject({
      written: 1,
      duplicates: 2,
    });
  });

  it('recovers from a crash mid-append: cuts a torn line and fingerprints records written before their fingerprints', async () => {
    const log = createJsonlL0Log({ home: tmp.dir, now: at('2026-11-21T10:00:00Z') });
    await log.append({ records: [rec(1)] });
    const day = join(tmp.dir, 'conversations', '2026-11-21.jsonl');
    // A crash after the log append but before the fingerprints: record 2 is in the log only,
    // followed by a torn half line.
    appendFileSync(day, `${JSON.stringify(rec(2))}\n{"sessionKey":"k","sess`);
    rmSync(join(tmp.dir, 'conversations', '.seen'), { recursive: true });
    const fresh = createJsonlL0Log({ home: tmp.dir, now: at('2026-11-21T10:00:00Z') });
    expect(await fresh.append({ records: [rec(1), rec(2), rec(3)] })).toMatchObject({ written: 1, duplicates: 2 });
    const lines = readFileSync(day, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((l) => (JSON.parse(l) as L0Record).id)).toEqual(['id1', 'id2', 'id3']);
  });

  it('a failed append raises a retryable StorageError and forgets the batch, so a retry writes it', async () => {
    const log = createJsonlL0Log({ home: tmp.dir, now: at('2026-11-21T10:00:00Z') });
    const day = join(tmp.dir, 'conversations', '2026-11-21.jsonl');
    mkdirSync(day, { recursive: true }); // the day file cannot be opened for append
    await expect(log.append({ records: [rec(1)] })).rejects.toMatchObject({ code: 'STORAGE', isRetryable: true });
    rmSync(day, { recursive: true });
    expect((await log.append({ records: [rec(1)] })).written).toBe(1);
  });

  it('reads past corrupt lines (the end position moves over them) and maps legacy day-file cursors', async () => {
    const log = createJsonlL0Log({ home: tmp.dir, now: at('2026-11-21T10:00:00Z') });
    await log.append({ records: [rec(1)] });
    const day = join(tmp.dir, 'conversations', '2026-11-21.jsonl');
    const size = readFileSync(day).length;
    appendFileSync(day, 'not json\n{"also":"not a record"}\n');
    const r = await log.read();
    expect(r.entries.map((e) => e.record.id)).toEqual(['id1']);
    expect(r.end! > r.entries[0]!.position).toBe(true);
    expect(log.legacyPosition({ file: '2026-11-21.jsonl', offset: size })).toBe(r.entries[0]!.position);
    await expect(log.read({ after: 'nonsense' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
