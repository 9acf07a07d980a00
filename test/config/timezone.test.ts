// Issue 16 item 6: day files and journal days follow config `timezone`, whose default is the system's.
// The zone is set before anything reads it: Node re-reads TZ when it is assigned.
process.env.TZ = 'America/Los_Angeles';

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createJsonlL0Log } from '../../src/backends/l0-jsonl/index.js';
import { appendToDayLog } from '../../src/core/journal/day-log.js';
import { journalPaths } from '../../src/core/journal/options.js';
import { l0Record } from '../contracts/l0-log-contract.js';
import { tempDir } from '../capture/helpers.js';

// 20:30 on 23 November in Los Angeles is already 24 November in UTC.
const EVENING = new Date('2026-11-24T04:30:00Z');

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('timezone setting', () => {
  it('defaults to the system zone, accepts an IANA name and rejects an unknown one with the field named', async () => {
    expect((await loadConfig({ home: tmp.dir, env: {} })).config.timezone).toBe('America/Los_Angeles');
    await writeFile(join(tmp.dir, 'config.json'), JSON.stringify({ timezone: 'Europe/Berlin' }));
    expect((await loadConfig({ home: tmp.dir, env: {} })).config.timezone).toBe('Europe/Berlin');
    await writeFile(join(tmp.dir, 'config.json'), JSON.stringify({ timezone: 'Mars/Olympus_Mons' }));
    await expect(loadConfig({ home: tmp.dir, env: {} })).rejects.toThrow(/timezone[\s\S]*IANA time zone/);
  });

  it("an evening message lands in that local day's L0 file and is found by a read since its recording time", async () => {
    const { config } = await loadConfig({ home: tmp.dir, env: {} });
    const log = createJsonlL0Log({ home: tmp.dir, timeZone: config.timezone, now: () => EVENING });
    const record = l0Record(1, { recordedAt: EVENING.toISOString(), timestamp: EVENING.getTime() });
    await log.append({ records: [record] });
    expect((await readdir(join(tmp.dir, 'conversations'))).filter((n) => n.endsWith('.jsonl'))).toEqual(['2026-11-23.jsonl']);
    // The file is named by the local day, `recordedSince` is UTC: the read must not skip the file.
    const found = await log.readSession({ agentId: 'a', recordedSince: new Date(EVENING.getTime() - 60_000).toISOString() });
    expect(found.map((e) => e.record.id)).toEqual([record.id]);
    await log.close();
  });

  it("the journal writes the evening into that local day's log", async () => {
    const { config } = await loadConfig({ home: tmp.dir, env: {} });
    const path = await appendToDayLog({
      paths: journalPaths(tmp.dir),
      at: EVENING,
      text: 'An evening entry.\n',
      timeZone: config.timezone,
    });
    expect(path.endsWith('2026-11-23.md')).toBe(true);
    expect(await readFile(path, 'utf8')).toMatch(/^# Journal 2026-11-23\n/);
  });
});
