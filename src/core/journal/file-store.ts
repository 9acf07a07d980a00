import { hash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import type {
  JournalArticleText,
  JournalCompileCommit,
  JournalCompiledDay,
  JournalFlushCommit,
  JournalLock,
  JournalPendingOutcome,
  JournalPendingRetry,
  JournalSessionProgress,
  JournalStoreCapabilities,
  JournalStoreV1,
} from '../../spec/journal-store.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import { DAY_LOG, journalPaths, type JournalPaths } from './options.js';
import { listPending, savePending, withPendingFile } from './pending.js';
import {
  emptyCompileState,
  emptyFlushState,
  readFlushState,
  readJson,
  updateJsonState,
  type CompileState,
  type FlushState,
} from './state.js';

const SESSION_LOCK_BUCKETS = 64;

/** A missing file reads as undefined; any other failure is thrown. */
async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The text that follows `current` when `text` is appended: entries are separated by one blank line. */
export function appendedLog(current: string | undefined, day: string, text: string): string {
  const base = current ?? `# Journal ${day}\n\n`;
  const separator = base.length === 0 || base.endsWith('\n\n') ? '' : base.endsWith('\n') ? '\n' : '\n\n';
  return base + separator + text;
}

/**
 * The journal as files under the home (layout in README.md): day logs `journal/YYYY-MM-DD.md`,
 * `pending/*.json`, `knowledge/<slug>.md` + `index.md`, `.flush-state.json`, `.compile-state.json`
 * and lock files under `.locks/` (they go stale after a while when their holder dies). Every write
 * is atomic (temp file + rename); read-modify-writes hold a lock file.
 */
export class FileJournalStore implements JournalStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'files';
  readonly capabilities: JournalStoreCapabilities = { shared: false, lockEndsWithHolder: false };
  readonly paths: JournalPaths;

  constructor(options: { home: string }) {
    this.paths = journalPaths(options.home);
  }

  exclusive<T>(options: { lock: JournalLock; timeoutMs: number }, fn: () => Promise<T>): Promise<T> {
    return withFileLock({ path: this.lockPath(options.lock), timeoutMs: options.timeoutMs }, fn);
  }

  /** Sessions share 64 lock files (bucketed by hash), so the folder stays small. */
  private lockPath(lock: JournalLock): string {
    if (lock.kind === 'compile') return this.paths.compileLock;
    const bucket = parseInt(hash('sha1', lock.sessionId, 'hex').slice(0, 8), 16) % SESSION_LOCK_BUCKETS;
    return join(this.paths.locksDir, `session-${bucket}.lock`);
  }

  dayLocation(day: string): string {
    // The day names a file: nothing but YYYY-MM-DD may reach the path.
    if (!DAY_LOG.test(`${day}.md`))
      throw new InvalidArgumentError({ argument: 'day', message: `A journal day is YYYY-MM-DD (got ${JSON.stringify(day)}).` });
    return join(this.paths.dir, `${day}.md`);
  }

  async days(): Promise<string[]> {
    return (await namesIn(this.paths.dir)).filter((n) => DAY_LOG.test(n)).map((n) => n.slice(0, 10));
  }

  readDay(day: string): Promise<string | undefined> {
    return readIfExists(this.dayLocation(day));
  }

  async appendToDay(options: { day: string; text: string }): Promise<void> {
    const path = this.dayLocation(options.day);
    await withFileLock({ path: this.paths.appendLock }, async () => {
      await writeFileAtomic({ path, data: appendedLog(await readIfExists(path), options.day, options.text) });
    });
  }

  async readProgress(sessionId: string): Promise<JournalSessionProgress | undefined> {
    return (await readFlushState(this.paths.flushState)).sessions[sessionId];
  }

  async commitFlush(options: JournalFlushCommit): Promise<{ pendingId?: string }> {
    if (options.entry) await this.appendToDay(options.entry);
    const pendingId = options.pending ? await savePending(this.paths, options.pending) : undefined;
    const forget = Date.parse(options.forgetBefore);
    await updateJsonState<FlushState>({
      path: this.paths.flushState,
      lockPath: this.paths.stateLock,
      empty: emptyFlushState,
      change: (s) => {
        s.sessions ??= {};
        s.sessions[options.sessionId] = options.progress;
        for (const [id, p] of Object.entries(s.sessions)) if (Date.parse(p.lastFlushAt) < forget) delete s.sessions[id];
      },
    });
    return pendingId ? { pendingId } : {};
  }

  listPending(): Promise<string[]> {
    return listPending(this.paths);
  }

  withPending(id: string, fn: JournalPendingRetry): Promise<JournalPendingOutcome> {
    return withPendingFile(id, fn, (entry) => this.appendToDay(entry));
  }

  async readCompiled(): Promise<Record<string, JournalCompiledDay>> {
    const state = await readJson<CompileState>(this.paths.compileState, emptyCompileState);
    const out: Record<string, JournalCompiledDay> = {};
    for (const [name, day] of Object.entries(state.days ?? {})) if (DAY_LOG.test(name)) out[name.slice(0, 10)] = day;
    return out;
  }

  async readArticles(): Promise<JournalArticleText[]> {
    const names = (await namesIn(this.paths.knowledgeDir)).filter((n) => n.endsWith('.md') && !n.startsWith('.') && n !== 'index.md');
    const out: JournalArticleText[] = [];
    for (const name of names) {
      const text = await readIfExists(join(this.paths.knowledgeDir, name));
      if (text !== undefined) out.push({ slug: name.slice(0, -3), text });
    }
    return out;
  }

  readIndex(): Promise<string | undefined> {
    return readIfExists(this.paths.indexFile);
  }

  /** Articles, then the index, then the state: a crash in between recompiles the day (nothing is lost). */
  async commitCompile(options: JournalCompileCommit): Promise<void> {
    for (const a of options.articles) {
      // Core slugifies; checked again here because the slug becomes a file name.
      if (!/^[a-z0-9-]+$/.test(a.slug))
        throw new StorageError({ message: `The journal article slug ${JSON.stringify(a.slug)} is not [a-z0-9-]; nothing was written.` });
    }
    for (const a of options.articles) await writeFileAtomic({ path: join(this.paths.knowledgeDir, `${a.slug}.md`), data: a.text });
    await writeFileAtomic({ path: this.paths.indexFile, data: options.index });
    await updateJsonState<CompileState>({
      path: this.paths.compileState,
      lockPath: this.paths.stateLock,
      empty: emptyCompileState,
      change: (s) => {
        s.days ??= {};
        s.days[`${options.day}.md`] = options.compiled;
      },
    });
  }

  async close(): Promise<void> {}
}
