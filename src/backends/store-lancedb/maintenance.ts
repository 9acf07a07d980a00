import { StorageError } from '../../errors/index.js';
import { COLUMNS } from './schema.js';
import { createVectorIndex, ensureBaseIndexes, hasVectorIndex, type Table } from './tables.js';

/** Check after the first write of a process, then every CHECK_EVERY writes or CHECK_ROWS rows. */
const CHECK_EVERY = 20;
const CHECK_ROWS = 5_000;
/** Compact once this many fragments exist (each write adds one). */
const MAX_FRAGMENTS = 32;
/** Merge new rows into the FTS/vector indexes once this many are unindexed (they are searched flat). */
const MAX_UNINDEXED = 2_000;
/**
 * Each optimize folds new rows into the HNSW index as a new delta segment, and LanceDB will not
 * compact fragments covered by different segments (measured on 0.39: 10 optimize runs left 11
 * fragments and 11 segments). Past this many segments an explicit optimize() rebuilds the vector
 * index in one piece, after which compaction works again. FTS and scalar indexes merge by themselves.
 */
const MAX_VECTOR_SEGMENTS = 8;
/** Old versions are pruned after this long, so an in-flight read in another process keeps its files. */
const KEEP_VERSIONS_MS = 60_000;

export type OptimizeMode = 'auto' | 'explicit' | 'force';

/**
 * Keeps the table fast without callers remembering to: every write is counted, and a cheap
 * check (table stats + index list, a manifest read) decides whether to compact, prune old
 * versions, fold unindexed rows into the indexes, or build the HNSW index once the table passes
 * annThreshold (exact search costs 110-180 ms at 100k x 512-d; the build ~8 s at 20k rows).
 * That automatic pass runs inline at the end of the triggering write (under the caller's write
 * lock, if any) and never fails the write. Consolidating vector delta segments rebuilds the whole
 * HNSW index (minutes at 100k rows on 2 loaded cores), so only an explicit `optimize()` does it:
 * callers run it after imports and periodically (`strata optimize`).
 */
export class Maintenance {
  private writes = CHECK_EVERY;
  private rows = 0;
  private running: Promise<unknown> = Promise.resolve();
  readonly annThreshold: number;

  constructor(options: { annThreshold: number }) {
    this.annThreshold = options.annThreshold;
  }

  async afterWrite(table: Table, dimensions: number, rows: number): Promise<void> {
    this.writes++;
    this.rows += rows;
    if (this.writes < CHECK_EVERY && this.rows < CHECK_ROWS) return;
    this.writes = 0;
    this.rows = 0;
    try {
      if (await this.needsOptimize(table, dimensions)) await this.optimize(table, dimensions, { mode: 'auto' });
    } catch {
      // Opportunistic: the data is written; the next check or an explicit optimize() retries.
    }
  }

  private async needsOptimize(table: Table, dimensions: number): Promise<boolean> {
    const [stats, indices] = await Promise.all([table.stats(), table.listIndices()]);
    const vectorIndex = indices.find((i) => i.columns.includes(COLUMNS.vector));
    // About one fragment per vector delta segment cannot be compacted until an explicit optimize.
    if (stats.fragmentStats.numFragments - (vectorIndex?.numSegments ?? 0) >= MAX_FRAGMENTS) return true;
    if (indices.some((i) => (i.numUnindexedRows ?? 0) >= MAX_UNINDEXED)) return true;
    return dimensions > 0 && stats.numRows >= this.annThreshold && !vectorIndex;
  }

  /**
   * Serialised per store object: concurrent optimize calls run one after another. `explicit`
   * also consolidates vector delta segments past MAX_VECTOR_SEGMENTS; `force` consolidates any
   * delta and prunes every old version at once.
   */
  optimize(
    table: Table,
    dimensions: number,
    options: { mode: OptimizeMode },
  ): Promise<{ fragmentsBefore: number; fragmentsAfter: number; indexes: string[] }> {
    const run = this.running.then(() => this.optimizeNow(table, dimensions, options));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async optimizeNow(table: Table, dimensions: number, { mode }: { mode: OptimizeMode }) {
    try {
      const before = await table.stats();
      await ensureBaseIndexes(table);
      if (dimensions > 0 && before.numRows >= this.annThreshold && !(await hasVectorIndex(table))) await createVectorIndex(table);
      // Compacts fragments, folds new rows into every index, prunes versions older than the cut-off.
      const cleanupOlderThan = () => new Date(Date.now() - (mode === 'force' ? 0 : KEEP_VERSIONS_MS));
      await table.optimize({ cleanupOlderThan: cleanupOlderThan() });
      const segments = (await table.listIndices()).find((i) => i.columns.includes(COLUMNS.vector))?.numSegments ?? 1;
      if (mode !== 'auto' && segments > (mode === 'force' ? 1 : MAX_VECTOR_SEGMENTS)) {
        await createVectorIndex(table);
        await table.optimize({ cleanupOlderThan: cleanupOlderThan() });
      }
      const after = await table.stats();
      const indexes = (await table.listIndices()).map((i) => i.name);
      return { fragmentsBefore: before.fragmentStats.numFragments, fragmentsAfter: after.fragmentStats.numFragments, indexes };
    } catch (error) {
      throw new StorageError({
        message: `Optimising the LanceDB table failed: ${(error as Error).message}`,
        cause: error,
        isRetryable: true,
      });
    }
  }
}
