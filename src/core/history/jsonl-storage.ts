import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryEntry, HistoryLogCapabilities, HistoryLogV1 } from '../../spec/history-log.js';
import { withFileLock } from '../../util/file-lock.js';

const MONTH_FILE = /^\d{4}-\d{2}\.jsonl$/;

/**
 * The embedded history storage (the default, kept with the engine so a bare home needs no
 * wiring): one JSONL line per entry under `<home>/history/YYYY-MM.jsonl`. Appends happen under a
 * file lock, one write per batch, so concurrent processes never interleave partial lines; readers
 * skip a torn last line.
 */
export class JsonlHistoryStorage implements HistoryLogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'jsonl';
  readonly capabilities: HistoryLogCapabilities = { concurrentWriters: true, indexedLookup: false };
  readonly dir: string;
  private readonly lockPath: string;

  constructor(options: { home: string }) {
    this.dir = join(options.home, 'history');
    this.lockPath = join(this.dir, '.lock');
  }

  async append(options: { entries: HistoryEntry[] }): Promise<void> {
    if (options.entries.length === 0) return;
    // Entries of one call land in the month of the first one's time (a call is one change).
    const file = join(this.dir, `${options.entries[0]!.at.slice(0, 7)}.jsonl`);
    await mkdir(this.dir, { recursive: true });
    await withFileLock({ path: this.lockPath }, async () => {
      await appendFile(file, options.entries.map((e) => JSON.stringify(e)).join('\n') + '\n', 'utf8');
    });
  }

  async historyOf(options: { id: string }): Promise<HistoryEntry[]> {
    const out: HistoryEntry[] = [];
    for await (const entry of this.entries()) {
      if (entry.id === options.id || entry.related?.some((r) => r.id === options.id)) out.push(entry);
    }
    return out.sort((a, b) => (a.at === b.at ? (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0) : a.at < b.at ? -1 : 1));
  }

  async *entries(): AsyncGenerator<HistoryEntry> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => MONTH_FILE.test(n)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const text = await readFile(join(this.dir, name), 'utf8');
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        try {
          const entry = JSON.parse(line) as HistoryEntry;
          if (typeof entry.id === 'string' && typeof entry.action === 'string') yield entry;
        } catch {
          // A torn last line from a crash mid-append.
        }
      }
    }
  }

  async close(): Promise<void> {}
}
