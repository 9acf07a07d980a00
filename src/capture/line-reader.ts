import { open, type FileHandle } from 'node:fs/promises';
import { LineSplitter, type RawLine, type UnfinishedLine } from './line-splitter.js';

export { LineSplitter, type RawLine, type UnfinishedLine };

/**
 * Streams complete lines of a file from a byte offset with a fixed-size buffer, so memory stays
 * flat however large the file. A line ends at `\n`, `\r\n` or a lone `\r` (see `LineSplitter`).
 * A trailing line without a terminator is never returned: the writer may still be appending it,
 * so it waits for the next run; the last chunk then says how far that unfinished line was read,
 * so a caller can resume an oversized one there instead of reading it again.
 */
export interface ReadLinesOptions {
  path: string;
  start: number;
  /** Stop at the first line boundary at or past `start + maxBytes` (soft cap: a started line is finished). */
  maxBytes?: number;
  /** Lines longer than this are skipped without being held in memory. Default 8 MiB. */
  maxLineBytes?: number;
  bufferBytes?: number;
  /**
   * The line at `start` is already known to be longer than `maxLineBytes`, with no terminator
   * before `scannedTo` (from an earlier read's `unfinished`): reading resumes at `scannedTo`.
   */
  oversizedTail?: { scannedTo: number };
}

export interface LineChunk {
  lines: RawLine[];
  /** Offset after the last complete line read so far. */
  end: number;
  /** On the last chunk, when the file ends inside a line: that line, read up to the end of the file. */
  unfinished?: UnfinishedLine;
}

export async function* readCompleteLines(options: ReadLinesOptions): AsyncGenerator<LineChunk> {
  const maxLine = options.maxLineBytes ?? 8 * 1024 * 1024;
  const stopAt = options.maxBytes === undefined ? Infinity : options.start + options.maxBytes;
  const buf = Buffer.allocUnsafe(options.bufferBytes ?? 1024 * 1024);
  const handle = await open(options.path, 'r');
  try {
    const scannedTo = options.oversizedTail?.scannedTo;
    const resume = scannedTo !== undefined && scannedTo > options.start ? scannedTo : undefined;
    const splitter = new LineSplitter({
      start: options.start,
      maxLineBytes: maxLine,
      ...(resume !== undefined ? { oversizedTo: resume } : { afterCr: await endsWithCr(handle, options.start) }),
    });
    let pos = resume ?? options.start;
    let yielded = options.start;
    for (;;) {
      if (splitter.lineStart >= stopAt) return;
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      const lines: RawLine[] = [];
      if (bytesRead === 0) {
        const unfinished = splitter.finish(lines);
        if (lines.length > 0 || splitter.lineStart > yielded || unfinished) {
          yield { lines, end: splitter.lineStart, ...(unfinished ? { unfinished } : {}) };
        }
        return;
      }
      splitter.push(buf.subarray(0, bytesRead), lines, stopAt);
      pos += bytesRead;
      // A chunk without lines still moves `end` when it only consumed the `\n` of a split `\r\n`.
      if (lines.length > 0 || splitter.lineStart > yielded) {
        yielded = splitter.lineStart;
        yield { lines, end: splitter.lineStart };
      }
    }
  } finally {
    await handle.close();
  }
}

/** Whether the byte just before `offset` is `\r`: a `\n` at `offset` then completes that `\r\n`. */
async function endsWithCr(handle: FileHandle, offset: number): Promise<boolean> {
  if (offset <= 0) return false;
  const one = Buffer.alloc(1);
  const { bytesRead } = await handle.read(one, 0, 1, offset - 1);
  return bytesRead === 1 && one[0] === 13;
}

/** Offset just past the last line terminator (`\n` or `\r`) at or before `size` (0 if none): where `--from-now` starts. */
export async function lastLineBoundary(path: string, size: number): Promise<number> {
  if (size === 0) return 0;
  const handle = await open(path, 'r');
  try {
    const window = 64 * 1024;
    const buf = Buffer.allocUnsafe(window);
    let endPos = size;
    while (endPos > 0) {
      const from = Math.max(0, endPos - window);
      const { bytesRead } = await handle.read(buf, 0, endPos - from, from);
      const part = buf.subarray(0, bytesRead);
      // A `\r` last means the reader resumes after it and folds a `\n` that follows into that line.
      const idx = Math.max(part.lastIndexOf(10), part.lastIndexOf(13));
      if (idx !== -1) return from + idx + 1;
      endPos = from;
    }
    return 0;
  } finally {
    await handle.close();
  }
}
