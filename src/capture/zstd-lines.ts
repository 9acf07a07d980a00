import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import type { LineChunk, RawLine } from './line-reader.js';

/**
 * Lines of a zstd-compressed transcript archive (`*.jsonl.reset.<ts>.zst`), decompressed as a
 * stream so memory stays flat. Archives are complete files, so a last line without `\n` counts.
 * Offsets are positions in the decompressed text; archives are read whole, never resumed.
 */
export async function* readZstdLines(options: { path: string; maxLineBytes?: number }): AsyncGenerator<LineChunk> {
  const maxLine = options.maxLineBytes ?? 8 * 1024 * 1024;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const handle = await open(options.path, 'r');
  let pending: RawLine[] = [];
  let carry: Buffer[] = [];
  let carryLen = 0;
  let oversized = false;
  let offset = 0;
  const emit = (bytes: Buffer | null, length: number): void => {
    const start = offset;
    offset += length + 1;
    if (bytes === null) {
      pending.push({ skipped: 'oversized', start, end: offset });
      return;
    }
    try {
      pending.push({ text: decoder.decode(bytes).replace(/\r$/, ''), start, end: offset });
    } catch {
      pending.push({ skipped: 'invalid-utf8', start, end: offset });
    }
  };
  const onData = (data: Uint8Array): void => {
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let from = 0;
    for (let nl = buf.indexOf(10, from); nl !== -1; nl = buf.indexOf(10, from)) {
      const piece = buf.subarray(from, nl);
      const length = carryLen + piece.length;
      emit(oversized || length > maxLine ? null : Buffer.concat([...carry, piece]), length);
      carry = [];
      carryLen = 0;
      oversized = false;
      from = nl + 1;
    }
    const rest = buf.length - from;
    if (rest > 0 && !oversized && carryLen + rest <= maxLine) {
      carry.push(Buffer.from(buf.subarray(from)));
    } else if (rest > 0) {
      oversized = true;
      carry = [];
    }
    carryLen += rest;
  };
  const stream = new Decompress(onData);
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let pos = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      pos += bytesRead;
      stream.push(new Uint8Array(buf.subarray(0, bytesRead)), bytesRead === 0);
      if (carryLen > 0 && bytesRead === 0) emit(oversized ? null : Buffer.concat(carry), carryLen);
      if (pending.length > 0) {
        yield { lines: pending, end: offset };
        pending = [];
      }
      if (bytesRead === 0) return;
    }
  } finally {
    await handle.close();
  }
}
