import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { L0Record } from '../../spec/conversation.js';
import { writeFileAtomic } from '../../util/atomic-write.js';

/**
 * Reads the L0 log (`<home>/conversations/YYYY-MM-DD.jsonl`) for distillation with its own
 * cursor, `<home>/distill/state.json`: a byte offset per day file plus the keys of messages past
 * that offset already distilled. A message becomes "done" only after the memories made from it
 * are stored, and the offset moves over a prefix of done lines only, so a crash or a failing LLM
 * means re-reading, never skipping.
 */
export interface L0Message {
  /** `host|agent|session|id`: unique per message in the log. */
  key: string;
  file: string;
  start: number;
  end: number;
  record: L0Record;
}

export interface L0Line {
  key: string | null;
  file: string;
  start: number;
  end: number;
}

export interface DistillState {
  version: 1;
  files: Record<string, number>;
  done: string[];
}

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;
const EMPTY: DistillState = { version: 1, files: {}, done: [] };

export function messageKey(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId' | 'id'>): string {
  return `${r.host}|${r.agentId}|${r.sessionId}|${r.id}`;
}

function isRecord(v: unknown): v is L0Record {
  const r = v as Partial<L0Record> | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && typeof r.content === 'string' && typeof r.role === 'string' &&
    typeof r.agentId === 'string' && typeof r.sessionId === 'string';
}

export class DistillCursor {
  readonly conversationsDir: string;
  readonly statePath: string;
  private state: DistillState = EMPTY;
  private done = new Set<string>();
  /** Every line read this run, per file in order, for advancing offsets. */
  private lines = new Map<string, L0Line[]>();

  constructor(options: { home: string }) {
    this.conversationsDir = join(options.home, 'conversations');
    this.statePath = join(options.home, 'distill', 'state.json');
  }

  async load(): Promise<void> {
    try {
      const parsed = JSON.parse(await readFile(this.statePath, 'utf8')) as Partial<DistillState>;
      this.state = { version: 1, files: parsed.files ?? {}, done: parsed.done ?? [] };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.state = { ...EMPTY, files: {}, done: [] };
    }
    this.done = new Set(this.state.done);
    this.lines.clear();
  }

  /**
   * Messages not yet distilled, oldest file first, at most `maxMessages` (a soft cap: reading
   * stops at the end of the file where it is reached). Unparseable lines count as done.
   */
  async readPending(options: { maxMessages?: number; maxBytesPerFile?: number } = {}): Promise<L0Message[]> {
    const max = options.maxMessages ?? Infinity;
    let names: string[];
    try {
      names = (await readdir(this.conversationsDir)).filter((n) => DAY_FILE.test(n)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: L0Message[] = [];
    for (const file of names) {
      if (out.length >= max) break;
      const offset = this.state.files[file] ?? 0;
      const buf = await readFrom(join(this.conversationsDir, file), offset, options.maxBytesPerFile ?? 64 * 1024 * 1024);
      const lines: L0Line[] = [];
      let pos = 0;
      while (pos < buf.length) {
        const nl = buf.indexOf(0x0a, pos);
        if (nl < 0) break; // a line still being written waits for the next run
        const raw = buf.subarray(pos, nl).toString('utf8');
        const start = offset + pos;
        const end = offset + nl + 1;
        pos = nl + 1;
        let record: unknown;
        try {
          record = raw.trim() ? JSON.parse(raw) : undefined;
        } catch {
          record = undefined;
        }
        const key = isRecord(record) ? messageKey(record) : null;
        lines.push({ key, file, start, end });
        if (isRecord(record) && key && !this.done.has(key)) out.push({ key, file, start, end, record });
      }
      this.lines.set(file, lines);
    }
    return out;
  }

  /** Marks messages done (their memories are stored) and persists the advanced cursor atomically. */
  async commit(options: { keys: Iterable<string> }): Promise<void> {
    for (const key of options.keys) this.done.add(key);
    for (const [file, lines] of this.lines) {
      let offset = this.state.files[file] ?? 0;
      for (const line of lines) {
        if (line.end <= offset) continue;
        if (line.key !== null && !this.done.has(line.key)) break;
        offset = line.end;
        if (line.key !== null) this.done.delete(line.key);
      }
      this.state.files[file] = offset;
    }
    this.state.done = [...this.done];
    await writeFileAtomic({ path: this.statePath, data: JSON.stringify(this.state) });
  }

  /** Bytes of L0 not yet read past the offsets: a cheap "is there new work" probe for the scheduler. */
  async pendingBytes(): Promise<number> {
    let names: string[];
    try {
      names = (await readdir(this.conversationsDir)).filter((n) => DAY_FILE.test(n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let total = 0;
    for (const file of names) {
      const handle = await open(join(this.conversationsDir, file), 'r');
      try {
        total += Math.max(0, (await handle.stat()).size - (this.state.files[file] ?? 0));
      } finally {
        await handle.close();
      }
    }
    return total;
  }
}

async function readFrom(path: string, offset: number, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const length = Math.max(0, Math.min(size - offset, maxBytes));
    const buf = Buffer.alloc(length);
    if (length > 0) await handle.read(buf, 0, length, offset);
    return buf;
  } finally {
    await handle.close();
  }
}
