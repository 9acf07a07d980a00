import { mkdir, open, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import type { ConversationHost, L0Record } from '../../spec/conversation.js';
import type {
  L0AppendResult,
  L0Entry,
  L0LogCapabilities,
  L0LogV1,
  L0Position,
  L0ReadResult,
  L0RepairResult,
  L0SessionFilter,
  L0SessionInfo,
} from '../../spec/l0-log.js';
import { withFileLock } from '../../util/file-lock.js';
import { isNotFound } from '../../util/fs-util.js';
import { dayOf, dayPath, encodePosition, linesAfter, listDays, parseRecord } from './day-files.js';
import { SeenIndex } from './seen-index.js';
import { previousDay } from '../../util/time-zone.js';

/**
 * The L0 log as daily JSONL files under `<home>/conversations/` (one record a line), appended
 * under a cross-process lock, deduplicated by the seen index (`seen-index.ts`).
 *
 * Crash safety: records are appended (and fsynced) first, then their fingerprints, then the
 * seen-index watermark. The next append (or `repair`) fingerprints anything past the watermark
 * from the log itself and cuts a torn last line, so a kill at any point leaves no record twice
 * and none half-written.
 */
export interface JsonlL0LogOptions {
  /** Strata home: the log lives in `<home>/conversations`. */
  home: string;
  /** Clock for choosing the day file (tests). */
  now?: () => Date;
  /** IANA zone whose calendar days name the day files (config `timezone`, whose default is the system's); default UTC. */
  timeZone?: string;
}

const CAPABILITIES: L0LogCapabilities = { concurrentAppends: true, indexedSessionReads: false, shared: false, tornTails: true };
const DEFAULT_READ_LIMIT = 1_000;

export class JsonlL0Log implements L0LogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'jsonl';
  readonly capabilities = CAPABILITIES;
  readonly dir: string;
  private readonly seen: SeenIndex;
  private readonly lockPath: string;
  private readonly now: () => Date;
  private readonly timeZone: string;

  constructor(options: JsonlL0LogOptions) {
    this.dir = join(options.home, 'conversations');
    this.seen = new SeenIndex({ dir: join(this.dir, '.seen') });
    this.lockPath = join(this.dir, '.lock');
    this.now = options.now ?? (() => new Date());
    this.timeZone = options.timeZone ?? 'UTC';
  }

  async append(options: { records: L0Record[]; dryRun?: boolean; abortSignal?: AbortSignal }): Promise<L0AppendResult> {
    if (options.records.length === 0) return { written: 0, duplicates: 0, entries: [], records: [] };
    options.abortSignal?.throwIfAborted();
    return withFileLock({ path: this.lockPath }, async () => {
      await this.recover();
      const { fresh, duplicates, pending } = await this.seen.classify(options.records);
      if (options.dryRun) {
        this.seen.forget(pending.keys()); // nothing was written: drop the fingerprints counted above
        return { written: fresh.length, duplicates, entries: [], records: fresh };
      }
      if (fresh.length === 0) return { written: 0, duplicates, entries: [], records: [] };
      // The newest day file, never an older one (a clock set back): positions stay increasing.
      const days = await listDays(this.dir);
      const day = [dayOf(this.now(), this.timeZone), days.at(-1) ?? ''].sort().at(-1)!;
      const file = dayPath(this.dir, day);
      try {
        await mkdir(this.dir, { recursive: true });
        const lines = fresh.map((r) => `${JSON.stringify(r)}\n`);
        const handle = await open(file, 'a');
        let offset: number;
        try {
          offset = (await handle.stat()).size;
          await handle.writeFile(lines.join(''), 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        const entries: L0Entry[] = fresh.map((record, i) => {
          offset += Buffer.byteLength(lines[i]!);
          return { position: encodePosition(day, offset), record };
        });
        await this.seen.persist(pending);
        const watermark = await this.seen.readWatermark();
        watermark[`${day}.jsonl`] = (await stat(file)).size;
        await this.seen.writeWatermark(watermark);
        return { written: fresh.length, duplicates, entries, records: fresh };
      } catch (error) {
        // The cache already counts these records as seen: forget it, so a retry writes them.
        // Disk state is repaired by recover().
        this.seen.forget(pending.keys());
        throw new StorageError({
          message: `Cannot append to the conversation log ${file}: ${(error as Error).message}. Free disk space or fix permissions; the batch is retried on the next run.`,
          cause: error,
          isRetryable: true,
        });
      }
    });
  }

  async read(options: { after?: L0Position; limit?: number; abortSignal?: AbortSignal } = {}): Promise<L0ReadResult> {
    const limit = options.limit ?? DEFAULT_READ_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new InvalidArgumentError({ argument: 'limit', message: `limit must be a positive whole number, got ${limit}.` });
    const entries: L0Entry[] = [];
    let end = options.after;
    for await (const line of linesAfter(this.dir, options.after)) {
      options.abortSignal?.throwIfAborted();
      end = encodePosition(line.day, line.end);
      const record = line.text === undefined ? undefined : parseRecord(line.text);
      if (!record) continue;
      entries.push({ position: end, record });
      if (entries.length >= limit) return { entries, end, done: false };
    }
    return { entries, end, done: true };
  }

  async readSession(options: L0SessionFilter & { abortSignal?: AbortSignal }): Promise<L0Entry[]> {
    // Lines that cannot mention the session are skipped before parsing: a long log stays cheap.
    const needle = [options.sessionId, options.sessionKey, options.agentId].find((v) => v !== undefined);
    const quoted = needle === undefined ? undefined : JSON.stringify(needle);
    // Files are named by local day, `recordedAt` is UTC: a local day starts at most a day before the UTC one.
    const sinceDay = options.recordedSince === undefined ? undefined : previousDay(options.recordedSince.slice(0, 10));
    const out: L0Entry[] = [];
    for await (const line of linesAfter(this.dir, sinceDay ? encodePosition(sinceDay, 0) : undefined)) {
      options.abortSignal?.throwIfAborted();
      if (line.text === undefined || (quoted !== undefined && !line.text.includes(quoted))) continue;
      const record = parseRecord(line.text);
      if (!record || !matches(record, options)) continue;
      out.push({ position: encodePosition(line.day, line.end), record });
    }
    return out;
  }

  async sessions(options: { agentId?: string; host?: ConversationHost; abortSignal?: AbortSignal } = {}): Promise<L0SessionInfo[]> {
    const sessions = new Map<string, L0SessionInfo>();
    for await (const line of linesAfter(this.dir, undefined)) {
      options.abortSignal?.throwIfAborted();
      const r = line.text === undefined ? undefined : parseRecord(line.text);
      if (!r || !matches(r, options)) continue;
      const key = JSON.stringify([r.host, r.agentId, r.sessionKey, r.sessionId]);
      const s = sessions.get(key);
      if (!s) {
        sessions.set(key, {
          host: r.host,
          agentId: r.agentId,
          sessionKey: r.sessionKey,
          sessionId: r.sessionId,
          messages: 1,
          firstTimestamp: r.timestamp,
          lastTimestamp: r.timestamp,
          lastRecordedAt: r.recordedAt,
        });
        continue;
      }
      s.messages += 1;
      s.firstTimestamp = Math.min(s.firstTimestamp, r.timestamp);
      s.lastTimestamp = Math.max(s.lastTimestamp, r.timestamp);
      if (r.recordedAt > s.lastRecordedAt) s.lastRecordedAt = r.recordedAt;
    }
    return [...sessions.values()].sort((a, b) => b.lastTimestamp - a.lastTimestamp);
  }

  has(options: { record: L0Record }): Promise<boolean> {
    return this.seen.has(options.record);
  }

  repair(): Promise<L0RepairResult> {
    return withFileLock({ path: this.lockPath }, () => this.recover());
  }

  legacyPosition(options: { file: string; offset: number }): L0Position {
    const day = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(options.file)?.[1];
    if (!day) throw new InvalidArgumentError({ argument: 'file', message: `${options.file} is not a day file of the conversation log.` });
    return encodePosition(day, options.offset);
  }

  async close(): Promise<void> {
    // Files are opened per call: nothing to release.
  }

  /** Fingerprints records past the seen watermark and cuts torn last lines (a crash mid-append). */
  private async recover(): Promise<L0RepairResult> {
    const result: L0RepairResult = { truncated: 0, reindexed: 0 };
    const watermark = await this.seen.readWatermark();
    let changed = false;
    for (const day of await listDays(this.dir)) {
      const name = `${day}.jsonl`;
      const path = dayPath(this.dir, day);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
      const mark = watermark[name] ?? 0;
      if (size === mark) continue;
      changed = true;
      if (size < mark) {
        watermark[name] = size;
        continue;
      }
      const pending = new Map<string, string[]>();
      let end = mark;
      for await (const line of linesAfter(this.dir, encodePosition(day, mark))) {
        if (line.day !== day) break;
        end = line.end;
        const record = line.text === undefined ? undefined : parseRecord(line.text);
        if (record) result.reindexed += await this.seen.learn(record, pending);
      }
      if (end < size) {
        await truncate(path, end);
        result.truncated += size - end;
      }
      await this.seen.persist(pending);
      watermark[name] = end;
    }
    if (changed) await this.seen.writeWatermark(watermark);
    return result;
  }
}

function matches(r: L0Record, f: L0SessionFilter): boolean {
  return (
    (f.agentId === undefined || r.agentId === f.agentId) &&
    (f.sessionId === undefined || r.sessionId === f.sessionId) &&
    (f.sessionKey === undefined || r.sessionKey === f.sessionKey) &&
    (f.host === undefined || r.host === f.host) &&
    (f.recordedSince === undefined || r.recordedAt >= f.recordedSince)
  );
}

export function createJsonlL0Log(options: JsonlL0LogOptions): JsonlL0Log {
  return new JsonlL0Log(options);
}
