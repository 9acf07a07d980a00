import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SummaryIndex, SummarySession, SummaryStoreCapabilities, SummaryStoreV1 } from '../../spec/summary-store.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import { loadIndex, saveIndex } from './index-file.js';
import { summaryFile, summaryPaths } from './paths.js';

/**
 * Summaries as files under the home (see README.md, "Files"): `<home>/summaries/<agent>/<session-slug>/`
 * with `index.json`, one `L<level>-<seq>.md` per summary and the session's `.lock`. A commit writes
 * the text first and then the index (both atomically), so the index never names a missing text.
 */
export class FileSummaryStore implements SummaryStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'files';
  readonly capabilities: SummaryStoreCapabilities = { shared: false, lockEndsWithHolder: false };
  private readonly home: string;

  constructor(options: { home: string }) {
    this.home = options.home;
  }

  private paths(s: SummarySession) {
    return summaryPaths({ home: this.home, agentId: s.agentId, sessionKey: s.sessionKey });
  }

  exclusive<T>(options: SummarySession & { timeoutMs?: number }, fn: () => Promise<T>): Promise<T> {
    return withFileLock({ path: this.paths(options).lockFile, timeoutMs: options.timeoutMs ?? 30_000 }, fn);
  }

  async readIndex(options: SummarySession): Promise<SummaryIndex | undefined> {
    const index = await loadIndex({ path: this.paths(options).indexFile, ...options });
    return index.updatedAt === null && index.summaries.length === 0 ? undefined : index;
  }

  async indexes(options: { agentId: string }): Promise<SummaryIndex[]> {
    const agentDir = this.paths({ agentId: options.agentId, sessionKey: '' }).agentDir;
    const names = await readdir(agentDir).catch(() => [] as string[]);
    const out: SummaryIndex[] = [];
    for (const name of names.sort()) {
      if (name.startsWith('.')) continue;
      try {
        const parsed = JSON.parse(await readFile(join(agentDir, name, 'index.json'), 'utf8')) as SummaryIndex;
        if (parsed.version === 1 && Array.isArray(parsed.summaries) && parsed.agentId === options.agentId) out.push(parsed);
      } catch {
        // missing or unreadable: left out (the context bootstrap goes on without it)
      }
    }
    return out;
  }

  async readText(options: SummarySession & { id: string }): Promise<string | undefined> {
    return readFile(summaryFile(this.paths(options), options.id), 'utf8').then(
      (t) => t.trim(),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      },
    );
  }

  async commit(options: SummarySession & { id: string; text: string; index: SummaryIndex }): Promise<void> {
    const paths = this.paths(options);
    await writeFileAtomic({ path: summaryFile(paths, options.id), data: options.text + '\n' });
    await saveIndex({ path: paths.indexFile, index: options.index });
  }

  async close(): Promise<void> {}
}
