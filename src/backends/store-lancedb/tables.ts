import './log-level.js';
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import { StorageError, StrataError } from '../../errors/index.js';
import { withFileLock } from '../../util/file-lock.js';
import { META_FILE, metaSignature, readMetaFile, writeMetaFile, type MetaFile } from './meta.js';
import { FTS_INDEX_VERSION, ftsIndexConfig } from './fts.js';
import { buildSchema, COLUMNS } from './schema.js';

export type Table = lancedb.Table;

/**
 * Owns the LanceDB connection, the cached view of the meta file and the open table handles of one
 * store object. Everything is opened lazily once and shared by concurrent calls. Before each
 * operation the meta file is stat'ed (microseconds): when another process swapped the live table
 * (`reembed`), the next call re-reads the meta and opens the new table instead of the dropped one.
 */
export class TableRegistry {
  readonly metaPath: string;
  private db: Promise<lancedb.Connection> | null = null;
  private cachedSignature: string | null = null;
  private cachedMeta: MetaFile | null = null;
  private readonly tables = new Map<string, Promise<Table>>();

  constructor(
    readonly dir: string,
    private readonly lockStaleMs?: number,
  ) {
    this.metaPath = join(dir, META_FILE);
  }

  connection(): Promise<lancedb.Connection> {
    // readConsistencyInterval 0: every read sees other processes' commits, which read-check-write
    // under the cross-process lock depends on (checking the latest version is a cheap local read).
    this.db ??= lancedb.connect(this.dir, { readConsistencyInterval: 0 }).catch((error: unknown) => {
      this.db = null;
      throw new StorageError({ message: `Cannot open the LanceDB store at ${this.dir}: ${(error as Error).message}`, cause: error });
    });
    return this.db;
  }

  async meta(): Promise<MetaFile | null> {
    const signature = await metaSignature(this.metaPath);
    if (signature !== this.cachedSignature) {
      const previous = this.cachedMeta?.table;
      this.cachedMeta = await readMetaFile(this.metaPath);
      this.cachedSignature = signature;
      // The live table was swapped (reembed): forget the old handle. It is not closed here, as a
      // concurrent call may still be reading through it; the native handle is freed with it.
      if (previous !== undefined && previous !== this.cachedMeta?.table) this.tables.delete(previous);
    }
    return this.cachedMeta;
  }

  /** Forgets the cached meta so the next call re-reads it (after this process rewrote it). */
  invalidateMeta(): void {
    this.cachedSignature = null;
  }

  async requireMeta(): Promise<MetaFile> {
    const meta = await this.meta();
    if (!meta) {
      throw new StorageError({
        message: `The store at ${this.dir} is not initialised: call initMeta({ embedderId, dimensions }) before writing.`,
      });
    }
    return meta;
  }

  /** The table by name, or null when it does not exist yet (nothing was ever written). */
  async open(name: string): Promise<Table | null> {
    const cached = this.tables.get(name);
    if (cached) return cached;
    const table = await this.openUncached(name);
    if (!table) return null;
    const existing = this.tables.get(name);
    if (existing) {
      table.close();
      return existing;
    }
    const ready = this.upgradeFts(name, table).then(() => table);
    this.tables.set(name, ready);
    ready.catch(() => this.tables.delete(name));
    return ready;
  }

  /**
   * Rebuilds the full-text index of a live table built with an older tokenizer (fts.ts), once,
   * under the meta lock, then records the new version in the meta file. Transparent: the first
   * call of a process that opens an old store pays the rebuild (seconds at 100k rows).
   */
  private async upgradeFts(name: string, table: Table): Promise<void> {
    const meta = await this.meta();
    if (!meta || meta.table !== name || meta.ftsVersion >= FTS_INDEX_VERSION) return;
    await this.withMetaLock(async () => {
      this.invalidateMeta();
      const current = await this.meta();
      if (!current || current.table !== name || current.ftsVersion >= FTS_INDEX_VERSION) return;
      try {
        await table.createIndex(COLUMNS.text, { config: ftsIndexConfig(), replace: true });
      } catch (error) {
        throw new StorageError({
          message: `Cannot rebuild the full-text index of ${name} with the current tokenizer: ${(error as Error).message}. Run \`strata optimize\` to retry.`,
          cause: error,
          isRetryable: true,
        });
      }
      await writeMetaFile(this.metaPath, { ...current, ftsVersion: FTS_INDEX_VERSION });
      this.invalidateMeta();
    });
  }

  /**
   * Opens the table, creating it (empty, with its base indexes) if missing. The promise is cached
   * synchronously so concurrent calls in this process create once; creation across processes is
   * serialised by the meta lock (LanceDB rejects two concurrent creates of one table).
   */
  openOrCreate(name: string, dimensions: number): Promise<Table> {
    const cached = this.tables.get(name);
    if (cached) return cached;
    const creating = (async () => {
      const existing = await this.openUncached(name);
      if (existing) {
        await this.upgradeFts(name, existing);
        return existing;
      }
      const created = await this.withMetaLock(async () => {
        const again = await this.openUncached(name);
        if (again) return { table: again, fresh: false };
        const db = await this.connection();
        try {
          const table = await db.createEmptyTable(name, buildSchema(dimensions), { mode: 'create', existOk: true });
          await ensureBaseIndexes(table);
          return { table, fresh: true };
        } catch (error) {
          if (StrataError.isInstance(error)) throw error;
          throw new StorageError({ message: `Cannot create table ${name} in ${this.dir}: ${(error as Error).message}`, cause: error });
        }
      });
      // upgradeFts takes the meta lock itself, so it runs after the creation lock is released.
      if (!created.fresh) await this.upgradeFts(name, created.table);
      return created.table;
    })();
    this.tables.set(name, creating);
    creating.catch(() => this.tables.delete(name));
    return creating;
  }

  /** Cross-process lock for meta-file changes and table creation (never the caller's write lock). */
  withMetaLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock({ path: join(this.dir, 'meta.lock'), staleMs: this.lockStaleMs }, fn);
  }

  private async openUncached(name: string): Promise<Table | null> {
    const db = await this.connection();
    if (!(await db.tableNames()).includes(name)) return null;
    try {
      return await db.openTable(name);
    } catch (error) {
      // Listed but without a committed version: another process is creating it right now.
      if (/not found/i.test((error as Error).message)) return null;
      throw new StorageError({ message: `Cannot open table ${name} in ${this.dir}: ${(error as Error).message}`, cause: error });
    }
  }

  async drop(name: string): Promise<void> {
    const handle = this.tables.get(name);
    this.tables.delete(name);
    if (handle) await handle.then((t) => t.close()).catch(() => undefined);
    const db = await this.connection();
    if ((await db.tableNames()).includes(name)) await db.dropTable(name);
  }

  async close(): Promise<void> {
    const handles = [...this.tables.values()];
    this.tables.clear();
    for (const handle of handles) await handle.then((t) => t.close()).catch(() => undefined);
    const db = this.db;
    this.db = null;
    if (db) await db.then((c) => c.close()).catch(() => undefined);
  }
}

/**
 * Full-text index: see fts.ts (tokenizer, stop words, version). Scope (few values) gets a bitmap,
 * id a btree: both make filtered reads and id lookups index scans. valid_to gets a btree because
 * every read filters `valid_to IS NULL` (current memories only): unindexed, that filter cost
 * ~6 ms per search channel at 100k rows (measured: FTS p50 11.1 -> 5.1 ms, vector 16.7 -> 11.5 ms).
 */
export async function ensureBaseIndexes(table: Table): Promise<void> {
  const existing = new Set((await table.listIndices()).flatMap((i) => i.columns));
  const wanted: Array<[string, lancedb.Index]> = [
    [COLUMNS.text, ftsIndexConfig()],
    [COLUMNS.scope, lancedb.Index.bitmap()],
    [COLUMNS.id, lancedb.Index.btree()],
    [COLUMNS.validTo, lancedb.Index.btree()],
  ];
  for (const [column, config] of wanted) {
    if (existing.has(column)) continue;
    try {
      await table.createIndex(column, { config, replace: false });
    } catch (error) {
      // Another process may have created it between listIndices and here.
      const now = new Set((await table.listIndices()).flatMap((i) => i.columns));
      if (!now.has(column))
        throw new StorageError({ message: `Cannot create the ${column} index: ${(error as Error).message}`, cause: error });
    }
  }
}

export async function hasVectorIndex(table: Table): Promise<boolean> {
  return (await table.listIndices()).some((i) => i.columns.includes(COLUMNS.vector));
}

/** HNSW with scalar quantisation over cosine: good recall at ef >= 100, unlike IVF_PQ defaults. */
export async function createVectorIndex(table: Table): Promise<void> {
  await table.createIndex(COLUMNS.vector, { config: lancedb.Index.hnswSq({ distanceType: 'cosine', numPartitions: 1 }), replace: true });
}

export { lancedb };
