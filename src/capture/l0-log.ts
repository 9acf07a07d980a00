import { mkdir, open, readFile, readdir, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageError } from '../errors/index.js';
import type { L0Record } from '../spec/conversation.js';
import { withFileLock } from '../util/file-lock.js';
import { FingerprintSet } from './fingerprint-set.js';
import { readCompleteLines } from './line-reader.js';
import { hashId, isObject } from './readers/common.js';
import { isNotFound, readJsonFile, syncDir, writeFileDurable } from './fs-util.js';
import { redactL0Record } from '../core/write/redact-record.js';
import { assertAgentId } from '../core/scope.js';

/**
 * The L0 log: `<home>/conversations/YYYY-MM-DD.jsonl` (UTC day of recording), one record a line,
 * appended under a lock. Dedupe uses a seen-fingerprint index per source (host, agent, session) in
 * `conversations/.seen/`, so a re-run never re-reads the logs. Each record has two fingerprints:
 * its entry id, and its content (role, time, text), which survives hosts re-numbering entries
 * when they rewrite a file.
 *
 * Crash safety: records are appended (and fsynced) first, then their fingerprints, then a
 * watermark saying how far each day file is indexed. On the next append, anything past the
 * watermark is indexed from the log itself, and a torn last line is cut off, so a crash at any
 * point leaves no record missing from the index and none half-written.
 */
const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

export function sourceKeyOf(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId'>): string {
  return `${r.host}|${r.agentId}|${r.sessionId}`;
}

export function fingerprintsOf(r: L0Record): [string, string] {
  const src = sourceKeyOf(r);
  return [hashId(`e|${src}|${r.id}`), hashId(`c|${src}|${r.role}|${r.timestamp}|${r.content}`)];
}

export interface AppendResult {
  written: number;
  duplicates: number;
  /** Records actually written, in order. */
  records: L0Record[];
}

interface SeenEntry {
  ids: FingerprintSet;
  /** Bytes of the ids file already loaded; a bigger file means another process appended. */
  size: number;
  endsWithNewline: boolean;
}

export class L0Log {
  readonly dir: string;
  private readonly seenDir: string;
  private readonly lockPath: string;
  private readonly watermarkPath: string;
  private readonly seen = new Map<string, SeenEntry>();
  private readonly redact: boolean;

  /** `redact` (default true): every record's content, session and message ids are redacted before it is stored. */
  constructor(options: { home: string; redact?: boolean }) {
    this.redact = options.redact ?? true;
    this.dir = join(options.home, 'conversations');
    this.seenDir = join(this.dir, '.seen');
    this.lockPath = join(this.dir, '.lock');
    this.watermarkPath = join(this.seenDir, 'watermark.json');
  }

  dayFile(date: Date): string {
    return join(this.dir, `${date.toISOString().slice(0, 10)}.jsonl`);
  }

  /** Appends the records not seen before; `dryRun` only counts. */
  async append(options: { records: L0Record[]; dryRun?: boolean; now?: Date }): Promise<AppendResult> {
    if (options.records.length === 0) return { written: 0, duplicates: 0, records: [] };
    return withFileLock({ path: this.lockPath }, async () => {
      await this.recover();
      const fresh: L0Record[] = [];
      const newIds = new Map<string, string[]>();
      let duplicates = 0;
      const loaded = new Map<string, SeenEntry>();
      for (const given of options.records) {
        assertAgentId(given.agentId); // the store boundary: no record of an agent that cannot form a scope
        const record = this.redact ? redactL0Record(given) : given;
        const key = sourceKeyOf(record);
        let seen = loaded.get(key);
        if (!seen) {
          seen = await this.loadSeen(key);
          loaded.set(key, seen);
        }
        const pending = newIds.get(key) ?? [];
        const [e, c] = fingerprintsOf(record);
        if (seen.ids.has(e) || seen.ids.has(c)) {
          duplicates += 1;
          continue;
        }
        seen.ids.add(e);
        seen.ids.add(c);
        pending.push(e, c);
        newIds.set(key, pending);
        fresh.push(record);
      }
      if (options.dryRun) {
        // Nothing was written: forget the fingerprints added above.
        for (const key of newIds.keys()) this.seen.delete(key);
        return { written: fresh.length, duplicates, records: fresh };
      }
      if (fresh.length === 0) return { written: 0, duplicates, records: [] };
      const file = this.dayFile(options.now ?? new Date());
      try {
        await mkdir(this.dir, { recursive: true });
        const handle = await open(file, 'a');
        try {
          await handle.writeFile(fresh.map((r) => JSON.stringify(r)).join('\n') + '\n', 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await this.writeIds(newIds);
        const watermark = await this.readWatermark();
        watermark[file.slice(this.dir.length + 1)] = (await stat(file)).size;
        await this.writeWatermark(watermark);
      } catch (error) {
        // The cache already counts these records as seen: forget it, so the batch (re-read because
        // its cursor was not committed) is written next time. Disk state is repaired by recover().
        for (const key of newIds.keys()) this.seen.delete(key);
        throw new StorageError({
          message: `Cannot append to the conversation log ${file}: ${(error as Error).message}. Free disk space or fix permissions; the batch is retried on the next run.`,
          cause: error,
          isRetryable: true,
        });
      }
      return { written: fresh.length, duplicates, records: fresh };
    });
  }

  /** Whether a record with these fields is already in the log (entry id or content match). */
  async has(record: L0Record): Promise<boolean> {
    const seen = await this.loadSeen(sourceKeyOf(record));
    const [e, c] = fingerprintsOf(record);
    return seen.ids.has(e) || seen.ids.has(c);
  }

  /** Streams every record of the log in day order (for tests, indexing and `sessions`). */
  async *records(): AsyncGenerator<L0Record> {
    let names: string[];
    try {
      names = (await readdir(this.dir, { withFileTypes: true })).filter((e) => e.isFile() && DAY_FILE.test(e.name)).map((e) => e.name).sort();
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const name of names) {
      for await (const chunk of readCompleteLines({ path: join(this.dir, name), start: 0 })) {
        for (const line of chunk.lines) {
          if (line.text === undefined) continue;
          try {
            yield JSON.parse(line.text) as L0Record;
          } catch {
            // A torn line from a crashed writer; recovery cuts it on the next append.
          }
        }
      }
    }
  }

  /**
   * No fsync: a watermark lost in a power cut is only behind (records get indexed again, which is
   * harmless); it is written after the fingerprints are fsynced, so it is never ahead of them.
   */
  private async writeWatermark(watermark: Record<string, number>): Promise<void> {
    await writeFileDurable(this.watermarkPath, JSON.stringify(watermark), { sync: false });
  }

  private async readWatermark(): Promise<Record<string, number>> {
    const data = await readJsonFile(this.watermarkPath).catch(() => undefined);
    return isObject(data) ? (data as Record<string, number>) : {};
  }

  /** Indexes records past the watermark and cuts torn last lines (left by a crash mid-append). */
  private async recover(): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.dir, { withFileTypes: true })).filter((e) => e.isFile() && DAY_FILE.test(e.name)).map((e) => e.name);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    const watermark = await this.readWatermark();
    let changed = false;
    for (const name of names) {
      const path = join(this.dir, name);
      const size = (await stat(path)).size;
      const mark = watermark[name] ?? 0;
      if (size === mark) continue;
      changed = true;
      if (size < mark) {
        watermark[name] = size;
        continue;
      }
      const newIds = new Map<string, string[]>();
      let end = mark;
      for await (const chunk of readCompleteLines({ path, start: mark })) {
        for (const line of chunk.lines) {
          if (line.text === undefined) continue;
          let record: L0Record;
          try {
            record = JSON.parse(line.text) as L0Record;
          } catch {
            continue;
          }
          const key = sourceKeyOf(record);
          const seen = await this.loadSeen(key);
          const fps = fingerprintsOf(record).filter((fp) => !seen.ids.has(fp));
          for (const fp of fps) seen.ids.add(fp);
          if (fps.length > 0) newIds.set(key, [...(newIds.get(key) ?? []), ...fps]);
        }
        end = chunk.end;
      }
      if (end < size) await truncate(path, end);
      await this.writeIds(newIds);
      watermark[name] = end;
    }
    if (changed) await this.writeWatermark(watermark);
  }

  private idsPath(key: string): string {
    return join(this.seenDir, `${hashId(key)}.ids`);
  }

  private async loadSeen(key: string): Promise<SeenEntry> {
    const path = this.idsPath(key);
    let entry = this.seen.get(key);
    let size = 0;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (entry && entry.size === size) return entry;
    if (!entry || size < entry.size) {
      entry = { ids: new FingerprintSet(), size: 0, endsWithNewline: true };
      if (this.seen.size > 256) this.seen.clear(); // bound memory across many sessions
      this.seen.set(key, entry);
    }
    if (size > entry.size) {
      const text = (await readFile(path, 'utf8')).slice(entry.size);
      for (const id of text.split('\n')) if (id.length === 16) entry.ids.add(id);
      entry.size = size;
      entry.endsWithNewline = text.length === 0 || text.endsWith('\n');
    }
    return entry;
  }

  private async writeIds(newIds: Map<string, string[]>): Promise<void> {
    if (newIds.size === 0) return;
    await mkdir(this.seenDir, { recursive: true });
    let created = false;
    for (const [key, ids] of newIds) {
      const entry = await this.loadSeen(key);
      if (entry.size === 0) created = true;
      // A torn last id (crash mid-append) must not glue onto the first new one.
      const data = (entry.endsWithNewline ? '' : '\n') + ids.join('\n') + '\n';
      const handle = await open(this.idsPath(key), 'a');
      try {
        await handle.writeFile(data, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      entry.size += Buffer.byteLength(data);
      entry.endsWithNewline = true;
    }
    if (created) await syncDir(this.seenDir);
  }
}
