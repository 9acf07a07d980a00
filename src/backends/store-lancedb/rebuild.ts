import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import type { RebuildHandle, StoredMemory } from '../../spec/index.js';
import type { Maintenance } from './maintenance.js';
import { writeMetaFile, type MetaFile } from './meta.js';
import { SCHEMA_VERSION } from './schema.js';
import { FTS_INDEX_VERSION } from './fts.js';
import type { TableRegistry } from './tables.js';
import { toArrowData, validateRecords } from './util.js';

/**
 * Re-embedding writes a fresh table next to the live one. Commit swaps the table name in the meta
 * file (an atomic rename), so readers flip to the new table on their next call; then the old
 * table is dropped. The caller should hold `withWriteLock` for the whole rebuild so no write
 * lands in the old table after it was copied.
 */
export async function startRebuild(options: {
  registry: TableRegistry;
  maintenance: Maintenance;
  baseName: string;
  embedderId: string;
  dimensions: number;
}): Promise<RebuildHandle> {
  const { registry, maintenance, embedderId, dimensions } = options;
  if (!embedderId) throw new InvalidArgumentError({ argument: 'embedderId', message: 'beginRebuild needs the new embedder id.' });
  if (!Number.isInteger(dimensions) || dimensions < 0) {
    throw new InvalidArgumentError({ argument: 'dimensions', message: `dimensions must be a non-negative integer, got ${dimensions}.` });
  }
  const name = `${options.baseName}_${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
  const table = await registry.openOrCreate(name, dimensions);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  const assertOpen = () => {
    if (state !== 'open') throw new StorageError({ message: `This rebuild was already ${state}; start a new one with beginRebuild.` });
  };

  return {
    async insert({ records }: { records: StoredMemory[] }) {
      assertOpen();
      if (records.length === 0) return;
      validateRecords(records, dimensions);
      await table.add(toArrowData(records, dimensions));
      await maintenance.afterWrite(table, dimensions, records.length);
    },
    async commit() {
      assertOpen();
      await maintenance.optimize(table, dimensions, { mode: 'explicit' });
      const previous = await registry.withMetaLock(async () => {
        registry.invalidateMeta();
        const old = await registry.meta();
        const meta: MetaFile = {
          embedderId,
          dimensions,
          schemaVersion: SCHEMA_VERSION,
          createdAt: new Date().toISOString(),
          table: name,
          ftsVersion: FTS_INDEX_VERSION,
        };
        await writeMetaFile(registry.metaPath, meta);
        registry.invalidateMeta();
        return old;
      });
      state = 'committed';
      if (previous && previous.table !== name) {
        // The swap is done; a failed drop only leaves an orphaned table behind.
        await registry.drop(previous.table).catch(() => undefined);
      }
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await registry.drop(name);
    },
  };
}
