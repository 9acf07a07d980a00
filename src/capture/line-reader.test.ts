import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/capture/helpers.js';
import { lastLineBoundary, readCompleteLines, type RawLine } from './line-reader.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

async function readAll(options: Parameters<typeof readCompleteLines>[0]): Promise<{ lines: RawLine[]; end: number }> {
  const lines: RawLine[] = [];
  let end = options.start;
  for await (const chunk of readCompleteLines(options)) {
    lines.push(...chunk.lines);
    end = chunk.end;
  }
  return { lines, end };
}

describe('readCompleteLines', () => {
  it('returns complete lines only; a partial last line waits until its newline arrives', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, 'one\ntwo\r\nthr');
    const first = await readAll({ path, start: 0 });
    expect(first.lines.map((l) => l.text)).toEqual(['one', 'two']);
    expect(first.end).toBe(9);
    appendFileSync(path, 'ee\n');
    const second = await readAll({ path, start: first.end });
    expect(second.lines).toEqual([{ text: 'three', start: 9, end: 15 }]);
  });

  it('skips invalid UTF-8 and oversized lines without holding them, and carries on', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from(`${'x'.repeat(5000)}\nafter\n`)]));
    const { lines } = await readAll({ path, start: 0, maxLineBytes: 1000, bufferBytes: 256 });
    expect(lines.map((l) => l.text ?? l.skipped)).toEqual(['ok', 'invalid-utf8', 'oversized', 'after']);
  });

  it('stops at the first line boundary past the byte cap (a started line is finished)', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, 'aaaa\nbbbb\ncccc\n');
    const { lines, end } = await readAll({ path, start: 0, maxBytes: 6 });
    expect(lines.map((l) => l.text)).toEqual(['aaaa', 'bbbb']);
    expect(end).toBe(10);
  });

  it('finds the last line boundary for --from-now', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, 'a\nbb\npartial');
    expect(await lastLineBoundary(path, 12)).toBe(5);
    expect(await lastLineBoundary(path, 0)).toBe(0);
  });

  it('property: any content read in capped runs with tiny buffers yields exactly the complete lines, in order', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')), { maxLength: 30 }),
      fc.string({ maxLength: 10 }).map((s) => s.replace(/\n/g, '')),
      fc.integer({ min: 1, max: 64 }), fc.integer({ min: 4, max: 50 }),
      async (lines, tail, cap, bufferBytes) => {
        const path = join(tmp.dir, 'p.jsonl');
        writeFileSync(path, lines.map((l) => `${l}\n`).join('') + tail);
        const got: string[] = [];
        let start = 0;
        for (let run = 0; run < 10_000; run += 1) {
          const r = await readAll({ path, start, maxBytes: cap, bufferBytes });
          got.push(...r.lines.map((l) => l.text ?? '<skipped>'));
          if (r.end === start) break;
          start = r.end;
        }
        expect(got).toEqual(lines);
      },
    ), { numRuns: 60 });
  });
});
