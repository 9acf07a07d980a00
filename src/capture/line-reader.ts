import { open } from 'node:fs/promises';

/**
 * Streams complete lines of a file from a byte offset with a fixed-size buffer, so memory stays
 * flat however large the file. A trailing line without `\n` is never returned: the writer may
 * still be appending it, so it waits for the next run.
 */
export interface RawLine {
  /** Decoded text; undefined when the line was skipped. */
  text?: string;
  skipped?: 'invalid-utf8' | 'oversized';
  start: number;
  /** Offset just past the line's `\n`. */
  end: number;
}

export interface ReadLinesOptions {
  path: string;
  start: number;
  /** Stop at the first line boundary at or past `start + maxBytes` (soft cap: a started line is finished). */
  maxBytes?: number;
  /** Lines longer than this are skipped without being held in memory. Default 8 MiB. */
  maxLineBytes?: number;
  bufferBytes?: number;
}

export interface LineChunk {
  lines: RawLine[];
  /** Offset after the last complete line read so far. */
  end: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export async function* readCompleteLines(options: ReadLinesOptions): AsyncGenerator<LineChunk> {
  const maxLine = options.maxLineBytes ?? 8 * 1024 * 1024;
  const stopAt = options.maxBytes === undefined ? Infinity : options.start + options.maxBytes;
  const buf = Buffer.allocUnsafe(options.bufferBytes ?? 1024 * 1024);
  const handle = await open(options.path, 'r');
  try {
    let pos = options.start;
    let lineStart = options.start;
    // Bytes of the current unfinished line, unless it grew past maxLine (then only its start is kept).
    let carry: Buffer[] = [];
    let carryLen = 0;
    let oversized = false;
    for (;;) {
      if (lineStart >= stopAt) return;
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) return;
      const lines: RawLine[] = [];
      let from = 0;
      // Fast path: decode all whole lines of the buffer at once when they are valid UTF-8 and
      // nothing is carried over; per-line decoding (below) only runs around odd input.
      const lastNl = buf.subarray(0, bytesRead).lastIndexOf(10);
      if (carryLen === 0 && !oversized && lastNl !== -1 && pos + lastNl + 1 <= stopAt) {
        const text = tryDecode(buf.subarray(0, lastNl));
        if (text !== undefined) {
          let offset = pos;
          const parts = text.split('\n');
          if (parts.every((p) => p.length <= maxLine)) {
            // Byte 0x0A never occurs inside a UTF-8 sequence, so part i ends at the i-th newline.
            let scan = 0;
            for (const part of parts) {
              const nl = buf.indexOf(10, scan);
              const end = pos + nl + 1;
              lines.push({ text: part.endsWith('\r') ? part.slice(0, -1) : part, start: offset, end });
              offset = end;
              scan = nl + 1;
            }
            from = lastNl + 1;
            lineStart = pos + from;
          } else lines.length = 0;
        }
      }
      for (;;) {
        const nl = buf.indexOf(10, from);
        if (nl === -1 || nl >= bytesRead) break;
        const end = pos + nl + 1;
        if (oversized || carryLen + (nl - from) > maxLine) {
          lines.push({ skipped: 'oversized', start: lineStart, end });
        } else {
          const piece = buf.subarray(from, nl);
          const bytes = carryLen === 0 ? piece : Buffer.concat([...carry, piece]);
          lines.push(decodeLine(bytes, lineStart, end));
        }
        carry = [];
        carryLen = 0;
        oversized = false;
        from = nl + 1;
        lineStart = end;
        if (lineStart >= stopAt) break;
      }
      if (lineStart < stopAt && from < bytesRead) {
        const rest = bytesRead - from;
        if (oversized || carryLen + rest > maxLine) {
          oversized = true;
          carry = [];
          carryLen = 0;
        } else {
          carry.push(Buffer.from(buf.subarray(from, bytesRead)));
          carryLen += rest;
        }
      }
      pos += bytesRead;
      if (lines.length > 0) yield { lines, end: lineStart };
    }
  } finally {
    await handle.close();
  }
}

function tryDecode(bytes: Buffer): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function decodeLine(bytes: Buffer, start: number, end: number): RawLine {
  try {
    let text = decoder.decode(bytes);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return { text, start, end };
  } catch {
    return { skipped: 'invalid-utf8', start, end };
  }
}

/** Offset just past the last `\n` at or before `size` (0 if none): where `--from-now` starts. */
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
      const idx = buf.subarray(0, bytesRead).lastIndexOf(10);
      if (idx !== -1) return from + idx + 1;
      endPos = from;
    }
    return 0;
  } finally {
    await handle.close();
  }
}
