/**
 * Splits a byte stream into lines with exact byte positions, holding at most one line (up to the
 * limit) in memory. A line ends at `\n`, `\r\n` or a lone `\r`: treating only `\n` as an end once
 * glued a line ending in a lone `\r` to the next one, and both were lost as one malformed line.
 * `\n` and `\r` never occur inside a UTF-8 sequence and JSON escapes both inside strings, so in
 * JSONL a raw `\r` is always a line end.
 *
 * A `\r` that is the last byte seen so far may be the first half of `\r\n`: its line is held until
 * the next byte arrives, or emitted by `finish` at the end of the input. A reader resuming just past
 * a `\r` passes `afterCr`, so a `\n` written later is folded into that line's end instead of being
 * read as an empty line: positions never overlap and no line is read twice.
 */
export interface RawLine {
  /** Decoded text; undefined when the line was skipped. */
  text?: string;
  skipped?: 'invalid-utf8' | 'oversized';
  start: number;
  /** Offset just past the line's terminator. */
  end: number;
}

/** A line the input ended inside of. */
export interface UnfinishedLine {
  start: number;
  /** Offset up to which it was read: the end of the input. */
  scannedTo: number;
  /** Already longer than the limit (its bytes were dropped): it will be skipped once it ends. */
  oversized: boolean;
}

export interface LineSplitterOptions {
  /** Stream offset of the first byte pushed (and where the first line starts). */
  start: number;
  /** Lines longer than this are reported as `oversized` without being held in memory. */
  maxLineBytes: number;
  /** The byte before `start` was a `\r` that ended a line: a `\n` first belongs to that line. */
  afterCr?: boolean;
  /** The line at `start` is known to be oversized and was read up to here: pushing starts here. */
  oversizedTo?: number;
}

const LF = 10;
const CR = 13;
const EMPTY = Buffer.alloc(0);
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class LineSplitter {
  /** Offset where the current, unfinished line starts (just past the last line emitted). */
  lineStart: number;
  /** Offset of the next byte to push. */
  private scanned: number;
  private readonly maxLine: number;
  /** Bytes of the unfinished line, unless it grew past the limit (then `oversized`, none kept). */
  private carry: Buffer[] = [];
  private carryLen = 0;
  private oversized = false;
  /** The unfinished line ended with a `\r` as the last byte seen: `\r` or `\r\n` decides its end. */
  private heldCr = false;
  private afterCr: boolean;

  constructor(options: LineSplitterOptions) {
    this.lineStart = options.start;
    this.maxLine = options.maxLineBytes;
    this.afterCr = options.afterCr ?? false;
    this.scanned = options.start;
    if (options.oversizedTo !== undefined && options.oversizedTo > options.start) {
      this.oversized = true;
      this.scanned = options.oversizedTo;
      this.afterCr = false;
    }
  }

  /**
   * Splits the next bytes of the input into `out`. With `stopAt`, stops after the first line that
   * ends at or past it (the rest of `buf` is not consumed; the caller stops too).
   */
  push(buf: Buffer, out: RawLine[], stopAt = Infinity): void {
    const base = this.scanned;
    const n = buf.length;
    if (n === 0) return;
    let i = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (buf[0] === LF) {
        i = 1;
        this.lineStart += 1;
      }
    } else if (this.heldCr) {
      this.heldCr = false;
      if (buf[0] === LF) i = 1;
      this.endLine(EMPTY, 0, 0, base + i, out);
    }
    // Fast path: every whole line of the buffer decoded at once when nothing is carried over and
    // they are valid UTF-8 within the limit; the per-line loop below handles the rest.
    if (this.carryLen === 0 && !this.oversized && this.lineStart < stopAt) {
      const lastLf = buf.lastIndexOf(LF);
      if (lastLf >= i && base + lastLf + 1 <= stopAt && this.wholeLines(buf, i, lastLf + 1, base, out)) i = lastLf + 1;
    }
    const next = terminatorFinder(buf);
    while (i < n && this.lineStart < stopAt) {
      const t = next(i);
      if (t === -1) break;
      if (buf[t] === CR && t + 1 === n) {
        this.keep(buf, i, t);
        this.heldCr = true;
        i = n;
        break;
      }
      const after = buf[t] === CR && buf[t + 1] === LF ? t + 2 : t + 1;
      this.endLine(buf, i, t, base + after, out);
      i = after;
    }
    if (i < n && this.lineStart < stopAt) {
      this.keep(buf, i, n);
      i = n;
    }
    this.scanned = base + i;
  }

  /**
   * End of the input so far. A held `\r` ends its line (a `\n` written later is folded in by the
   * next reader's `afterCr`). The line the input ends inside of is returned, or with `partialLine`
   * (a complete file, such as an archive) emitted as a last line.
   */
  finish(out: RawLine[], options: { partialLine?: boolean } = {}): UnfinishedLine | undefined {
    if (this.heldCr) {
      this.heldCr = false;
      this.endLine(EMPTY, 0, 0, this.scanned, out);
      this.afterCr = true;
      return undefined;
    }
    if (this.carryLen === 0 && !this.oversized) return undefined;
    if (options.partialLine) {
      this.endLine(EMPTY, 0, 0, this.scanned, out);
      return undefined;
    }
    return { start: this.lineStart, scannedTo: this.scanned, oversized: this.oversized };
  }

  /** Lines of `buf[from, to)` (which ends with `\n`) from one decode, or false to use the slow path. */
  private wholeLines(buf: Buffer, from: number, to: number, base: number, out: RawLine[]): boolean {
    const text = tryDecode(buf.subarray(from, to));
    if (text === undefined) return false;
    const cr = buf.indexOf(CR, from);
    const parts = cr !== -1 && cr < to ? text.split(/\r\n|\r|\n/) : text.split('\n');
    parts.pop(); // the empty rest after the final `\n`
    // `\r` and `\n` bytes map one to one onto those characters, so part k ends at terminator k.
    const next = terminatorFinder(buf);
    const lines: RawLine[] = [];
    let scan = from;
    for (const part of parts) {
      const t = next(scan);
      if (t - scan > this.maxLine) return false;
      const after = buf[t] === CR && buf[t + 1] === LF ? t + 2 : t + 1;
      lines.push({ text: part, start: base + scan, end: base + after });
      scan = after;
    }
    for (const line of lines) out.push(line);
    this.lineStart = base + to;
    return true;
  }

  private keep(buf: Buffer, from: number, to: number): void {
    const len = to - from;
    if (len === 0) return;
    if (this.oversized || this.carryLen + len > this.maxLine) {
      this.oversized = true;
      this.carry = [];
    } else {
      this.carry.push(Buffer.from(buf.subarray(from, to)));
    }
    this.carryLen += len;
  }

  /** Emits the unfinished line completed by `buf[from, to)`, ending (terminator included) at `end`. */
  private endLine(buf: Buffer, from: number, to: number, end: number, out: RawLine[]): void {
    const start = this.lineStart;
    if (this.oversized || this.carryLen + (to - from) > this.maxLine) {
      out.push({ skipped: 'oversized', start, end });
    } else {
      const piece = buf.subarray(from, to);
      const bytes = this.carryLen === 0 ? piece : Buffer.concat([...this.carry, piece]);
      const text = tryDecode(bytes);
      out.push(text === undefined ? { skipped: 'invalid-utf8', start, end } : { text, start, end });
    }
    this.carry = [];
    this.carryLen = 0;
    this.oversized = false;
    this.lineStart = end;
  }
}

/** Position of the next `\n` or `\r` at or after `from` (-1 if none); linear over one buffer. */
function terminatorFinder(buf: Buffer): (from: number) => number {
  let lf = -2;
  let cr = -2;
  return (from) => {
    if (lf !== -1 && lf < from) lf = buf.indexOf(LF, from);
    if (cr !== -1 && cr < from) cr = buf.indexOf(CR, from);
    return lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
  };
}

function tryDecode(bytes: Buffer): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
