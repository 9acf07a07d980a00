import { hash } from 'node:crypto';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { L0Record } from '../../spec/conversation.js';
import { isNotFound, readJsonFile, syncDir, writeFileDurable } from '../../util/fs-util.js';
import { FingerprintSet } from './fingerprint-set.js';

/**
 * The dedupe index of the JSONL log: per source (host, agent, session) a file of 64-bit
 * fingerprints in `conversations/.seen/`, two per record (entry id; role + time + text, which
 * survives hosts re-numbering entries when they rewrite a file). `watermark.json` says how far
 * each day file's records are fingerprinted, so a crash between the log write and the
 * fingerprint write is repaired from the log itself.
 */
export function fingerprint(text: string): string {
  // One-shot hash: several times cheaper than createHash() on the per-message hot path.
  return hash('sha1', text, 'base64url').slice(0, 16);
}

export function sourceKeyOf(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId'>): string {
  return `${r.host}|${r.agentId}|${r.sessionId}`;
}

export function fingerprintsOf(r: L0Record): [string, string] {
  const src = sourceKeyOf(r);
  return [fingerprint(`e|${src}|${r.id}`), fingerprint(`c|${src}|${r.role}|${r.timestamp}|${r.content}`)];
}

interface SeenEntry {
  ids: FingerprintSet;
  /** Bytes of the ids file already loaded; a bigger file means another process appended. */
  size: number;
  endsWithNewline: boolean;
}

export class SeenIndex {
  readonly dir: string;
  private readonly watermarkPath: string;
  private readonly cache = new Map<string, SeenEntry>();

  constructor(options: { dir: string }) {
    this.dir = options.dir;
    this.watermarkPath = join(options.dir, 'watermark.json');
  }

  /** Whether either fingerprint of the record is known. */
  async has(record: L0Record): Promise<boolean> {
    const seen = await this.load(sourceKeyOf(record));
    const [e, c] = fingerprintsOf(record);
    return seen.ids.has(e) || seen.ids.has(c);
  }

  /**
   * Splits records into fresh ones and duplicates (of the index or of each other), and returns the
   * fingerprints to persist once the fresh records are written. The in-memory sets already count
   * them; `forget` undoes that when the write does not happen.
   */
  async classify(records: L0Record[]): Promise<{ fresh: L0Record[]; duplicates: number; pending: Map<string, string[]> }> {
    const fresh: L0Record[] = [];
    const pending = new Map<string, string[]>();
    let duplicates = 0;
    for (const record of records) {
      const key = sourceKeyOf(record);
      const seen = await this.load(key);
      const [e, c] = fingerprintsOf(record);
      if (seen.ids.has(e) || seen.ids.has(c)) {
        duplicates += 1;
        continue;
      }
      seen.ids.add(e);
      seen.ids.add(c);
      pending.set(key, [...(pending.get(key) ?? []), e, c]);
      fresh.push(record);
    }
    return { fresh, duplicates, pending };
  }

  /** Drops cached sets the caller changed without persisting (a dry run, a failed write). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.cache.delete(key);
  }

  /** Adds a record read back from the log; returns the fingerprints that were new. */
  async learn(record: L0Record, into: Map<string, string[]>): Promise<number> {
    const key = sourceKeyOf(record);
    const seen = await this.load(key);
    const fps = fingerprintsOf(record).filter((fp) => !seen.ids.has(fp));
    for (const fp of fps) seen.ids.add(fp);
    if (fps.length > 0) into.set(key, [...(into.get(key) ?? []), ...fps]);
    return fps.length > 0 ? 1 : 0;
  }

  /** Appends fingerprints (fsynced), after the records they describe are durable in the log. */
  async persist(pending: Map<string, string[]>): Promise<void> {
    if (pending.size === 0) return;
    await mkdir(this.dir, { recursive: true });
    let created = false;
    for (const [key, ids] of pending) {
      const entry = await this.load(key);
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
    if (created) await syncDir(this.dir);
  }

  /** Bytes of each day file whose records are fingerprinted. */
  async readWatermark(): Promise<Record<string, number>> {
    const data = await readJsonFile(this.watermarkPath).catch(() => undefined);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, number>) : {};
  }

  /**
   * No fsync: a watermark lost in a power cut is only behind (records are fingerprinted again,
   * which is harmless); it is written after the fingerprints are fsynced, so never ahead of them.
   */
  async writeWatermark(watermark: Record<string, number>): Promise<void> {
    await writeFileDurable(this.watermarkPath, JSON.stringify(watermark), { sync: false });
  }

  private idsPath(key: string): string {
    return join(this.dir, `${fingerprint(key)}.ids`);
  }

  private async load(key: string): Promise<SeenEntry> {
    const path = this.idsPath(key);
    let entry = this.cache.get(key);
    let size = 0;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (entry && entry.size === size) return entry;
    if (!entry || size < entry.size) {
      entry = { ids: new FingerprintSet(), size: 0, endsWithNewline: true };
      if (this.cache.size > 256) this.cache.clear(); // bound memory across many sessions
      this.cache.set(key, entry);
    }
    if (size > entry.size) {
      const text = (await readFile(path, 'utf8')).slice(entry.size);
      for (const id of text.split('\n')) if (id.length === 16) entry.ids.add(id);
      entry.size = size;
      entry.endsWithNewline = text.length === 0 || text.endsWith('\n');
    }
    return entry;
  }
}
