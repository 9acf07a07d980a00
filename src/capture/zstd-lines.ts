import { open } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import type { LineChunk } from './line-reader.js';
import { LineSplitter, type RawLine } from './line-splitter.js';

/**
 * Lines of a zstd-compressed transcript archive (`*.jsonl.reset.<ts>.zst`), decompressed as a
 * stream so memory stays flat. Archives are complete files, so a last line without a line end counts.
 * Offsets are positions in the decompressed text; archives are read whole, never resumed.
 */
export async function* readZstdLines(options: { path: string; maxLineBytes?: number }): AsyncGenerator<LineChunk> {
  const splitter = new LineSplitter({ start: 0, maxLineBytes: options.maxLineBytes ?? 8 * 1024 * 1024 });
  const handle = await open(options.path, 'r');
  let pending: RawLine[] = [];
  const stream = new Decompress((data) => splitter.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength), pending));
  try {
    const buf = Buffer.allocUnsafe(1024 * 1024);
    let pos = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      pos += bytesRead;
      stream.push(new Uint8Array(buf.subarray(0, bytesRead)), bytesRead === 0);
      if (bytesRead === 0) splitter.finish(pending, { partialLine: true });
      if (pending.length > 0) {
        yield { lines: pending, end: splitter.lineStart };
        pending = [];
      }
      if (bytesRead === 0) return;
    }
  } finally {
    await handle.close();
  }
}
