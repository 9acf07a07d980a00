/**
 * Deleting by filter (scope, category, date) through a caller's operations view, so the same
 * scope rules hold as for every other delete: `strata delete --scope ... --before ...` and the
 * library's `Strata#deleteAll`. History (superseded) versions of matching memories go too.
 */
import type { MemoryRecord } from '../spec/memory-record.js';
import type { OperationsView } from './ops/index.js';

export interface BulkFilter {
  /** Scopes to delete from (each must be the caller's); default: every scope the caller reads. */
  scopes?: string[];
  categories?: string[];
  /** ISO 8601: memories created strictly before it. */
  before?: string;
}

export async function selectForDelete(ops: OperationsView, filter: BulkFilter): Promise<MemoryRecord[]> {
  const selected: MemoryRecord[] = [];
  const pageSize = ops.limits.listMax;
  const scope = filter.scopes && filter.scopes.length > 0 ? filter.scopes : undefined;
  for (let offset = 0; ; offset += pageSize) {
    const page = await ops.run('list', {
      scope,
      categories: filter.categories,
      includeHistory: true,
      limit: pageSize,
      offset,
      order: 'oldest',
    });
    for (const m of page.memories) if (!filter.before || m.createdAt < filter.before) selected.push(m);
    if (page.memories.length < pageSize) return selected;
  }
}

/** Deletes the given ids in batches the operation accepts; returns how many were deleted. */
export async function deleteIds(ops: OperationsView, ids: string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += ops.limits.idsMax) {
    deleted += (await ops.run('forget', { ids: ids.slice(i, i + ops.limits.idsMax) })).deleted;
  }
  return deleted;
}
