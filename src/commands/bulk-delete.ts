/**
 * `strata delete` / `forget` by filter: shows what it would delete, asks (or `--yes`); `--dry-run`
 * only lists. The selection itself is core's (`src/core/bulk-delete.ts`), shared with the library.
 */
import type { OperationsView } from '../core/ops/index.js';
import { deleteIds, selectForDelete, type BulkFilter } from '../core/bulk-delete.js';
import type { MemoryRecord } from '../spec/memory-record.js';
import { InvalidArgumentError } from '../errors/index.js';
import { confirmOrRefuse } from './confirm.js';

export function parseBefore(value: string): string {
  const t = Date.parse(value);
  if (!Number.isFinite(t))
    throw new InvalidArgumentError({
      argument: '--before',
      message: `--before ${JSON.stringify(value)} is not a date: use YYYY-MM-DD or an ISO 8601 time.`,
    });
  return new Date(t).toISOString();
}

export interface BulkDeleteResult {
  dryRun: boolean;
  matched: number;
  deleted: number;
  ids: string[];
}

export async function bulkDelete(
  ops: OperationsView,
  options: { filter: BulkFilter; dryRun?: boolean; yes?: boolean; describe: (records: MemoryRecord[]) => void },
): Promise<BulkDeleteResult> {
  const records = await selectForDelete(ops, options.filter);
  const ids = records.map((r) => r.id);
  if (records.length === 0 || options.dryRun) {
    if (records.length > 0) options.describe(records);
    return { dryRun: Boolean(options.dryRun), matched: records.length, deleted: 0, ids };
  }
  if (!options.yes) options.describe(records);
  const ok = await confirmOrRefuse({
    yes: options.yes,
    question: `Delete these ${records.length} memories?`,
    refusal: `Refusing to delete ${records.length} memories without confirmation.`,
  });
  if (!ok) return { dryRun: false, matched: records.length, deleted: 0, ids: [] };
  return { dryRun: false, matched: records.length, deleted: await deleteIds(ops, ids), ids };
}
