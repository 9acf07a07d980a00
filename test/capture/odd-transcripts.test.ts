import { appendFileSync, mkdirSync, openSync, closeSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CursorStore } from '../../src/capture/cursor-store.js';
import { ingest, type IngestOptions } from '../../src/capture/ingest.js';
import { l0Of, readL0, tempDir } from './helpers.js';

/**
 * Transcripts as custom agents and hosts really write them (issue 13, the smaller items): lone-CR
 * line ends, ids reused for different messages, and a huge line the host has not finished.
 */
let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function jsonlSource(): { home: string; root: string; path: string; run: (extra?: Partial<IngestOptions>) => ReturnType<typeof ingest> } {
  const home = join(tmp.dir, 'home');
  const root = join(tmp.dir, 'logs');
  mkdirSync(root, { recursive: true });
  const path = join(root, 'chat.jsonl');
  return { home, root, path, run: (extra = {}) => ingest({ home, log: l0Of(home), sources: [{ kind: 'jsonl', root }], ...extra }) };
}

const line = (fields: Record<string, unknown>): string => JSON.stringify(fields);
const at = (minute: number): string => new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString();

describe('odd transcripts', () => {
  it('a line ending in a lone CR does not swallow the next line, and CRLF / CR / LF files read the same', async () => {
    const { home, path, run } = jsonlSource();
    const messages = [
      line({ role: 'user', content: 'The staging database listens on port 6543 now.', timestamp: at(1) }),
      line({ role: 'assistant', content: 'Noted: staging database port is 6543.', timestamp: at(2) }),
      line({ role: 'user', content: 'Deploys go out on Thursdays after the review meeting.', timestamp: at(3) }),
      line({ role: 'assistant', content: 'Thursday deploys after review, understood.', timestamp: at(4) }),
    ];
    writeFileSync(path, `${messages[0]}\r${messages[1]}\r\n${messages[2]}\r`);
    const first = await run();
    expect(first.skippedLines).toEqual({});
    expect(first.messages.new).toBe(3);
    // The host completes the CRLF of the last line, then writes one more line.
    appendFileSync(path, `\n${messages[3]}\n`);
    const second = await run();
    expect(second.skippedLines).toEqual({});
    expect(second.messages.new).toBe(1);
    expect((await readL0(home)).map((r) => r.content)).toEqual([
      'The staging database listens on port 6543 now.',
      'Noted: staging database port is 6543.',
      'Deploys go out on Thursdays after the review meeting.',
      'Thursday deploys after review, understood.',
    ]);
    expect((await run()).files.unchanged).toBe(1);
  });

  it('generic JSONL: an id reused for a different message keeps both; the same line read again stays one record', async () => {
    const { home, path, run } = jsonlSource();
    writeFileSync(
      path,
      [
        line({ id: 't1', role: 'user', content: 'Which port does the staging database use?', timestamp: at(1) }),
        line({ id: 't1', role: 'assistant', content: 'The staging database uses port 6543.', timestamp: at(2) }),
        line({ id: 7, role: 'user', content: 'Please keep release notes in docs/releases.', timestamp: at(3) }),
        line({ id: 7, role: 'user', content: 'Please keep release notes in docs/releases.', timestamp: at(3) }),
      ].join('\n') + '\n',
    );
    const first = await run();
    expect(first.messages).toMatchObject({ parsed: 4, new: 3, duplicates: 1 });
    // Reused in a later run (ids per turn, or a counter that restarted): still a new message.
    appendFileSync(path, line({ id: 't1', role: 'user', content: 'And which port does production use?', timestamp: at(4) }) + '\n');
    expect((await run()).messages.new).toBe(1);
    const records = await readL0(home);
    expect(records.map((r) => [r.role, r.content])).toEqual([
      ['user', 'Which port does the staging database use?'],
      ['assistant', 'The staging database uses port 6543.'],
      ['user', 'Please keep release notes in docs/releases.'],
      ['user', 'And which port does production use?'],
    ]);
    expect(new Set(records.map((r) => r.id)).size).toBe(4);
    expect(records.every((r) => /^(t1|7)#/.test(r.id))).toBe(true);
    // Re-reading the whole file (cursors gone) records nothing twice.
    await new CursorStore({ home }).reset();
    const again = await run();
    expect(again.messages).toMatchObject({ parsed: 5, new: 0, duplicates: 5 });
  });

  it('a 10 MB line without a line end is read once, not on every run, and skipped once when the host ends it', async () => {
    const { home, path, run } = jsonlSource();
    const head = line({ role: 'user', content: 'Remember that the build cache lives on the NFS share.', timestamp: at(1) });
    writeFileSync(path, `${head}\n{"role":"tool","content":"${'a'.repeat(10 * 1024 * 1024)}`);
    const first = await run();
    expect(first.messages.new).toBe(1);
    expect(first.files.read).toBe(1);
    const cursor = Object.values(await new CursorStore({ home }).load())[0]!;
    expect(cursor.tail).toEqual({ scannedTo: statSync(path).size, oversized: true });

    // Nothing changed: the file is not read at all.
    const idle = await run();
    expect(idle.files).toMatchObject({ read: 0, unchanged: 1 });

    // The host writes more of the line. A line end planted in the part already read (past the
    // head hash) would be found by a reader that starts over; the reader goes on from where it stopped.
    const fd = openSync(path, 'r+');
    writeSync(fd, '\n', 5 * 1024 * 1024);
    closeSync(fd);
    appendFileSync(path, 'a'.repeat(1000));
    const grown = await run();
    expect(grown.skippedLines).toEqual({});
    expect(grown.messages.parsed).toBe(0);

    // The host ends the line and goes on: the line is skipped once, the next one is captured.
    appendFileSync(path, `"}\n${line({ role: 'assistant', content: 'The build cache is on the NFS share, noted.', timestamp: at(2) })}\n`);
    const ended = await run();
    expect(ended.skippedLines).toEqual({ oversized: 1 });
    expect(ended.messages.new).toBe(1);
    const after = await run();
    expect(after.files.unchanged).toBe(1);
    expect(after.skippedLines).toEqual({});
    expect((await readL0(home)).map((r) => r.content)).toEqual([
      'Remember that the build cache lives on the NFS share.',
      'The build cache is on the NFS share, noted.',
    ]);
    expect(Object.values(await new CursorStore({ home }).load())[0]!.tail).toBeUndefined();
  });
});
