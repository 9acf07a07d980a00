import type { MemoryFilter, StoreStats } from '../../spec/index.js';
import { filterToWhere } from './filter.js';
import { COLUMNS } from './schema.js';
import type { Table } from './tables.js';

/**
 * Counts rows by scope and category. With a filter, only matching rows are counted (the same
 * translation every read uses, so a scoped caller cannot see counts from other scopes).
 */
export async function collectStats(table: Table, options: { filter?: MemoryFilter } = {}): Promise<StoreStats> {
  const [tableStats, indices] = await Promise.all([table.stats(), table.listIndices()]);
  const out: StoreStats = {
    rows: 0,
    current: 0,
    byScope: {},
    byCategory: {},
    fragments: tableStats.fragmentStats.numFragments,
    diskBytes: tableStats.totalBytes,
    indexes: indices.map((i) => ({ name: i.name, type: i.indexType, columns: i.columns })),
  };
  // No GROUP BY in LanceDB: stream the three small columns and count here.
  let query = table.query().select([COLUMNS.scope, COLUMNS.category, COLUMNS.validTo]);
  if (options.filter) query = query.where(filterToWhere(options.filter));
  for await (const batch of query) {
    const scopes = batch.getChild(COLUMNS.scope);
    const categories = batch.getChild(COLUMNS.category);
    const validTo = batch.getChild(COLUMNS.validTo);
    for (let i = 0; i < batch.numRows; i++) {
      out.rows++;
      if (validTo?.get(i) === null) out.current++;
      const scope = String(scopes?.get(i));
      const category = String(categories?.get(i));
      out.byScope[scope] = (out.byScope[scope] ?? 0) + 1;
      out.byCategory[category] = (out.byCategory[category] ?? 0) + 1;
    }
  }
  return out;
}
