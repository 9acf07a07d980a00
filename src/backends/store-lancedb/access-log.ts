import { randomUUID } from 'node:crypto';
import { open, rename, stat, writeFile } from 'node:fs/promises';
import { withFileLock } from '../../util/file-lock.js';

/**
 * Access statistics live beside the table, not in it. Every LanceDB write makes a new table
 * version and rewrites the touched columns of whole fragments (measured at 100k rows: recall p95
 * went from ~50 ms to ~350 ms while recalls were being counted). So `touch` appends increments
 * to a small JSONL log, and reads add them to the table's values (count = table + increments,
 * time = latest). The table's access columns are therefore a base that only inserts set: updates
 * keep the stored base (store.ts), so an increment is never counted twice. Readers pick up other
 * processes' appends with one stat per read; a rewrite (compaction) changes the inode, which
 * makes readers reload from the start. The file system may hand a later rewrite the inode of an
 * earlier one, so readers also compare the file's first bytes, and a rewrite opens with a line
 * of its own (a generation id) that no other file has.
 */
export interface AccessEntry {
  count: number;
  at: string | null;
}

const COMPACT_BYTES = 2 * 1024 * 1024;
const HEAD_BYTES = 256;

export interface AccessLogOptions {
  path: string;
  lockStaleMs?: number;
  /** Rewrite the log once it grows past this many bytes. Default 2 MiB. */
  compactBytes?: number;
}

export class AccessLog {
  private entries = new Map<string, AccessEntry>();
  private offset = 0;
  private inode = -1;
  private tail = '';
  /** The first bytes of the file as last read from its start: the same inode with other bytes is another file. */
  private head = Buffer.alloc(0);

  private readonly path: string;
  private readonly lockStaleMs: number | undefined;
  private readonly compactBytes: number;

  constructor(options: AccessLogOptions) {
    this.path = options.path;
    this.lockStaleMs = options.lockStaleMs;
    this.compactBytes = options.compactBytes ?? COMPACT_BYTES;
  }

  /** Reads what other processes appended since the last call (one stat when nothing changed). */
  async refresh(): Promise<void> {
    let info;
    try {
      info = await stat(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (this.inode !== -1) this.reset(-1);
      return;
    }
    if (info.ino === this.inode && info.size === this.offset) return;
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // replaced right now: next read
      throw error;
    }
    try {
      // The handle's own stat: a compaction may have swapped the file since the stat above.
      const current = await handle.stat();
      if (current.ino !== this.inode || current.size < this.offset || !(await this.sameHead(handle))) this.reset(current.ino);
      const length = current.size - this.offset;
      if (length <= 0) return;
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read({ buffer, position: this.offset, length });
      if (this.offset === 0) this.head = Buffer.from(buffer.subarray(0, Math.min(bytesRead, HEAD_BYTES)));
      this.offset += bytesRead;
      this.apply(this.tail + buffer.subarray(0, bytesRead).toString('utf8'));
    } finally {
      await handle.close();
    }
  }

  private async sameHead(handle: Awaited<ReturnType<typeof open>>): Promise<boolean> {
    if (this.head.length === 0) return true;
    const buffer = Buffer.alloc(this.head.length);
    const { bytesRead } = await handle.read({ buffer, position: 0, length: buffer.length });
    return bytesRead === buffer.length && buffer.equals(this.head);
  }

  get(id: string): AccessEntry | undefined {
    return this.entries.get(id);
  }

  /** Appends increments; serialised across processes by a lock of its own (never behind an import). */
  async add(options: { accesses: Map<string, { count: number; at: string }> }): Promise<void> {
    const lines = [...options.accesses].map(([id, a]) => JSON.stringify({ id, count: a.count, at: a.at }));
    if (lines.length === 0) return;
    await withFileLock({ path: `${this.path}.lock`, staleMs: this.lockStaleMs }, async () => {
      const handle = await open(this.path, 'a');
      try {
        await handle.write(`${lines.join('\n')}\n`);
      } finally {
        await handle.close();
      }
      await this.refresh();
      if (this.offset >= this.compactBytes) await this.compact();
    });
  }

  /** The table's values plus the logged increments. */
  overlay(id: string, table: AccessEntry): AccessEntry {
    const delta = this.entries.get(id);
    return delta ? { count: table.count + delta.count, at: latest(table.at, delta.at) } : table;
  }

  /** Rewrites the log with one summed line per id (caller holds the lock). */
  private async compact(): Promise<void> {
    const lines = [...this.entries].map(([id, e]) => JSON.stringify({ id, count: e.count, at: e.at }));
    // Readers skip this line (no id); it makes the rewrite's first bytes its own.
    const text = [JSON.stringify({ generation: randomUUID() }), ...lines].join('\n');
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, `${text}\n`);
    await rename(tmp, this.path);
    await this.refresh();
  }

  private reset(inode: number): void {
    this.entries = new Map();
    this.offset = 0;
    this.tail = '';
    this.head = Buffer.alloc(0);
    this.inode = inode;
  }

  private apply(text: string): void {
    const lines = text.split('\n');
    // An append in progress in another process may end mid-line: keep the rest for next time.
    this.tail = lines.pop() ?? '';
    for (const line of lines) {
      if (line.length === 0) continue;
      try {
        const { id, count, at } = JSON.parse(line) as { id: unknown; count: unknown; at: unknown };
        if (typeof id !== 'string' || typeof count !== 'number' || !Number.isFinite(count)) continue;
        const prev = this.entries.get(id);
        this.entries.set(id, { count: (prev?.count ?? 0) + count, at: latest(prev?.at ?? null, typeof at === 'string' ? at : null) });
      } catch {
        // A torn line from a crashed writer: skip it, the counts are advisory.
      }
    }
  }
}

function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}
