import type { L0Record } from '../../spec/conversation.js';
import type { DistillCursorState, DistillProgressV1, LegacyDistillCursorState } from '../../spec/distill-progress.js';
import type { L0Entry, L0LogV1, L0Position } from '../../spec/l0-log.js';

/**
 * Reads the L0 log for distillation with its own cursor, kept in the distill progress store
 * (`<home>/distill/state.json`, or the database beside a shared L0 log): the log position up to which every message is distilled, plus the keys of messages past it already
 * distilled. A message becomes "done" only after the memories made from it are stored, and the
 * position moves over a prefix of done entries only, so a crash or a failing LLM means
 * re-reading, never skipping.
 */
export interface L0Message {
  /** `host|agent|session|id`: unique per message in the log. */
  key: string;
  position: L0Position;
  record: L0Record;
}

const PAGE = 1_000;

export function messageKey(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId' | 'id'>): string {
  return `${r.host}|${r.agentId}|${r.sessionId}|${r.id}`;
}

export class DistillCursor {
  private readonly progress: DistillProgressV1;
  private readonly log: L0LogV1;
  private after: L0Position | undefined;
  private done = new Set<string>();
  /** Entries read this run, in log order, for advancing the position. */
  private read: Array<{ key: string; position: L0Position }> = [];
  /** Where the last read stopped (past unreadable lines too). */
  private readEnd: L0Position | undefined;

  constructor(options: { progress: DistillProgressV1; log: L0LogV1 }) {
    this.progress = options.progress;
    this.log = options.log;
  }

  async load(): Promise<void> {
    const raw = await this.progress.readCursor();
    this.read = [];
    this.readEnd = undefined;
    if (raw?.version === 2) {
      this.after = raw.after;
      this.done = new Set(raw.done);
    } else if (raw) {
      await this.migrate(raw);
    } else {
      this.after = undefined;
      this.done = new Set();
    }
  }

  /**
   * Messages not yet distilled, in log order, at most `maxMessages` (soft: a page of the log is
   * read whole).
   */
  async readPending(options: { maxMessages?: number } = {}): Promise<L0Message[]> {
    const max = options.maxMessages ?? Infinity;
    const out: L0Message[] = [];
    let after = this.after;
    for (;;) {
      const page = await this.log.read({ after, limit: PAGE });
      for (const entry of page.entries) {
        const key = messageKey(entry.record);
        this.read.push({ key, position: entry.position });
        if (!this.done.has(key)) out.push({ key, position: entry.position, record: entry.record });
      }
      after = page.end;
      this.readEnd = page.end;
      if (page.done || out.length >= max) return out;
    }
  }

  /** Marks messages done (their memories are stored) and persists the advanced position atomically. */
  async commit(options: { keys: Iterable<string> }): Promise<void> {
    for (const key of options.keys) this.done.add(key);
    let all = true;
    for (const entry of this.read) {
      if (this.after !== undefined && entry.position <= this.after) continue;
      if (!this.done.has(entry.key)) {
        all = false;
        break;
      }
      this.after = entry.position;
      this.done.delete(entry.key);
    }
    // Every entry read is done: step over unreadable lines after the last one too.
    if (all && this.readEnd !== undefined && (this.after === undefined || this.readEnd > this.after)) this.after = this.readEnd;
    await this.save();
  }

  /** Messages waiting to be distilled, counted up to `max` (a cheap "is there work" probe). */
  async pendingMessages(options: { max?: number } = {}): Promise<number> {
    const max = options.max ?? 10_000;
    let count = 0;
    let after = this.after;
    for (;;) {
      const page = await this.log.read({ after, limit: Math.min(PAGE, max) });
      count += page.entries.filter((e) => !this.done.has(messageKey(e.record))).length;
      after = page.end;
      if (page.done || count >= max) return Math.min(count, max);
    }
  }

  private async save(): Promise<void> {
    const state: DistillCursorState = { version: 2, ...(this.after !== undefined ? { after: this.after } : {}), done: [...this.done] };
    await this.progress.writeCursor({ state });
  }

  /**
   * A v1 state counted byte offsets per day file: an entry is done when it lies before its file's
   * offset (or its key is listed). Positions sort in log order, so an entry belongs to the last
   * file whose start position is before it.
   */
  private async migrate(v1: LegacyDistillCursorState): Promise<void> {
    const files = Object.entries(v1.files ?? {});
    const done = new Set(v1.done ?? []);
    this.after = undefined;
    this.done = new Set();
    if (files.length === 0 || !this.log.legacyPosition) {
      this.done = done;
      return;
    }
    const legacy = this.log.legacyPosition.bind(this.log);
    const bounds = files
      .map(([file, offset]) => ({ start: legacy({ file, offset: 0 }), until: legacy({ file, offset }) }))
      .sort((a, b) => (a.start < b.start ? -1 : 1));
    const isDone = (entry: L0Entry, key: string): boolean => {
      if (done.has(key)) return true;
      const file = bounds.filter((b) => b.start < entry.position).at(-1);
      return file !== undefined && entry.position <= file.until;
    };
    let prefix = true;
    for (let after: L0Position | undefined, end = false; !end;) {
      const page = await this.log.read({ after, limit: PAGE });
      for (const entry of page.entries) {
        const key = messageKey(entry.record);
        const d = isDone(entry, key);
        if (prefix && d) this.after = entry.position;
        else if (d) this.done.add(key);
        else prefix = false;
      }
      after = page.end;
      end = page.done;
    }
    await this.save();
  }
}
