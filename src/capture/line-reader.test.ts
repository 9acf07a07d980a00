import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/capture/helpers.js';
import { lastLineBoundary, readCompleteLines, type LineChunk, type RawLine } from './line-reader.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

async function readAll(
  options: Parameters<typeof readCompleteLines>[0],
): Promise<{ lines: RawLine[]; end: number; unfinished?: LineChunk['unfinished'] }> {
  const lines: RawLine[] = [];
  let end = options.start;
  let unfinished: LineChunk['unfinished'];
  for await (const chunk of readCompleteLines(options)) {
    lines.push(...chunk.lines);
    end = chunk.end;
    unfinished = chunk.unfinished;
  }
  return { lines, end, ...(unfinished ? { unfinished } : {}) };
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
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xff, 0xfe, 0x00, 0x0a]), Buffer.from(`${'x'.repeat(5000)}\nafter\n`)]),
    );
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
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
          { maxLength: 30 },
        ),
        fc.string({ maxLength: 10 }).map((s) => s.replace(/\n/g, '')),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 4, max: 50 }),
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
      ),
      { numRuns: 60 },
    );
  });

  it('ends a line at a lone CR as at LF and CRLF, with exact byte positions', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, '{"a":1}\r{"b":2}\n{"c":3}\r\n\r{"d":4}\r');
    const { lines, end } = await readAll({ path, start: 0 });
    expect(lines).toEqual([
      { text: '{"a":1}', start: 0, end: 8 },
      { text: '{"b":2}', start: 8, end: 16 },
      { text: '{"c":3}', start: 16, end: 25 },
      { text: '', start: 25, end: 26 },
      { text: '{"d":4}', start: 26, end: 34 },
    ]);
    expect(end).toBe(34);
    expect(await lastLineBoundary(path, 34)).toBe(34);
    expect(await lastLineBoundary(path, 33)).toBe(26);
  });

  it('a CR at the end of the file ends its line; a LF written after it later completes that CRLF, not an empty line', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, 'one\r');
    const first = await readAll({ path, start: 0 });
    expect(first.lines).toEqual([{ text: 'one', start: 0, end: 4 }]);
    appendFileSync(path, '\n');
    // Only the LF is new: the cursor moves past it, with no line.
    const second = await readAll({ path, start: first.end });
    expect(second).toEqual({ lines: [], end: 5 });
    appendFileSync(path, 'two\r\n');
    const third = await readAll({ path, start: second.end });
    expect(third.lines).toEqual([{ text: 'two', start: 5, end: 10 }]);
    // The same bytes read from a cursor standing just past the CR.
    const resumed = await readAll({ path, start: 4 });
    expect(resumed.lines).toEqual([{ text: 'two', start: 5, end: 10 }]);
  });

  it('property: lines ending in LF, CRLF or lone CR, written in arbitrary pieces and read after each in capped runs, come out exactly once with exact positions', async () => {
    await fc.assert(
      fc.asyncProperty(
        piecewiseFile('grapheme', 30, 25, 6),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 2, max: 40 }),
        async ({ content, points }, cap, bufferBytes) => {
          const path = join(tmp.dir, 'p.jsonl');
          const got: RawLine[] = [];
          let start = 0;
          await appendInPieces(path, content, points, async () => {
            for (let run = 0; run < 10_000; run += 1) {
              const r = await readAll({ path, start, maxBytes: cap, bufferBytes });
              got.push(...r.lines);
              if (r.end === start) break;
              start = r.end;
            }
          });
          expect(got.map((l) => l.text)).toEqual(linesOf(content));
          const bytes = readFileSync(path);
          let previous = 0;
          for (const line of got) {
            // Each line is its text plus one terminator; a LF that completed a CRLF after the CR was read is the only gap.
            const gap = line.start - previous;
            expect(gap === 0 || (gap === 1 && bytes[previous] === 10 && bytes[previous - 1] === 13)).toBe(true);
            expect(bytes.subarray(line.start, line.end).toString()).toMatch(
              new RegExp(`^${escapeRegExp(line.text ?? '')}(\\n|\\r\\n|\\r)$`),
            );
            previous = line.end;
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('property: resuming unfinished oversized lines where the last read stopped gives the same lines as reading everything again', async () => {
    await fc.assert(
      fc.asyncProperty(
        piecewiseFile('grapheme-ascii', 60, 15, 8),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 2, max: 16 }),
        async ({ content, points }, maxLineBytes, bufferBytes) => {
          const path = join(tmp.dir, 'o.jsonl');
          const got: string[] = [];
          let start = 0;
          let hint: { scannedTo: number } | undefined;
          await appendInPieces(path, content, points, async () => {
            const r = await readAll({ path, start, maxLineBytes, bufferBytes, ...(hint ? { oversizedTail: hint } : {}) });
            got.push(...r.lines.map((l) => l.text ?? `<${l.skipped}>`));
            start = r.end;
            hint = r.unfinished?.oversized ? { scannedTo: r.unfinished.scannedTo } : undefined;
          });
          expect(got).toEqual(linesOf(content).map((l) => (l.length > maxLineBytes ? '<oversized>' : l)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('remembers an unfinished oversized line: reading resumes where the last read stopped and skips the line once it ends', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, `ok\n${'x'.repeat(5000)}`);
    const first = await readAll({ path, start: 0, maxLineBytes: 1000, bufferBytes: 256 });
    expect(first.lines.map((l) => l.text)).toEqual(['ok']);
    expect(first.unfinished).toEqual({ start: 3, scannedTo: 5003, oversized: true });
    // A line end planted in the part already read shows whether it is read again (it must not be).
    const planted = Buffer.from('\n');
    const fd = await import('node:fs/promises').then((fs) => fs.open(path, 'r+'));
    await fd.write(planted, 0, 1, 2000);
    await fd.close();
    appendFileSync(path, 'yyyy');
    const second = await readAll({ path, start: 3, maxLineBytes: 1000, bufferBytes: 256, oversizedTail: { scannedTo: 5003 } });
    expect(second).toEqual({ lines: [], end: 3, unfinished: { start: 3, scannedTo: 5007, oversized: true } });
    appendFileSync(path, 'y\nafter\n');
    const third = await readAll({ path, start: 3, maxLineBytes: 1000, bufferBytes: 256, oversizedTail: { scannedTo: 5007 } });
    expect(third.lines).toEqual([
      { skipped: 'oversized', start: 3, end: 5009 },
      { text: 'after', start: 5009, end: 5015 },
    ]);
    expect(third.unfinished).toBeUndefined();
  });

  it('reports a short unfinished line as not oversized', async () => {
    const path = join(tmp.dir, 'f.jsonl');
    writeFileSync(path, 'a\nbc');
    expect((await readAll({ path, start: 0 })).unfinished).toEqual({ start: 2, scannedTo: 4, oversized: false });
    writeFileSync(path, 'a\n');
    expect((await readAll({ path, start: 0 })).unfinished).toBeUndefined();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Lines with LF, CRLF or lone-CR ends plus an unfinished tail, and the points where the file is cut while written. */
function piecewiseFile(unit: 'grapheme' | 'grapheme-ascii', maxLineLength: number, maxLines: number, maxCuts: number) {
  const body = fc.string({ unit, maxLength: maxLineLength }).map((s) => s.replace(/[\r\n]/g, ''));
  return fc
    .tuple(
      fc.array(fc.tuple(body, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: maxLines }),
      body,
      fc.array(fc.nat(), { maxLength: maxCuts }),
    )
    .map(([lines, tail, cuts]) => {
      const content = Buffer.from(lines.map(([text, end]) => text + end).join('') + tail);
      return { content, points: [...new Set(cuts.map((c) => c % (content.length + 1)))].sort((a, b) => a - b) };
    });
}

/** The complete lines by definition ("\r" + "" + "\n" is one CRLF, whatever the generator meant). */
function linesOf(content: Buffer): string[] {
  return content
    .toString()
    .split(/\r\n|\r|\n/)
    .slice(0, -1);
}

async function appendInPieces(path: string, content: Buffer, points: number[], afterEach: () => Promise<void>): Promise<void> {
  writeFileSync(path, '');
  let at = 0;
  for (const point of [...points, content.length]) {
    appendFileSync(path, content.subarray(at, point));
    at = point;
    await afterEach();
  }
}
