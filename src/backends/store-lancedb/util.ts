import { InvalidArgumentError, StorageError, StrataError } from '../../errors/index.js';
import { MEMORY_CATEGORIES, type MemoryRecord, type StoredMemory } from '../../spec/index.js';
import { recordsToArrow, type TableLayout } from './schema.js';

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function assertLimit(limit: number, argument = 'limit'): void {
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be a positive integer, got ${limit}.` });
  }
}

export function stripVector(record: StoredMemory): MemoryRecord {
  const { vector: _vector, ...rest } = record;
  return rest;
}

const CATEGORIES = new Set<string>(MEMORY_CATEGORIES);

/** Checks a whole batch before anything is written, so bad input never half-writes. */
export function validateRecords(records: readonly StoredMemory[], dimensions: number): void {
  const seen = new Set<string>();
  for (const r of records) {
    const where = `record ${JSON.stringify(r.id)}`;
    if (typeof r.id !== 'string' || r.id === '')
      throw new InvalidArgumentError({ argument: 'records', message: 'Every record needs a non-empty id.' });
    if (seen.has(r.id))
      throw new InvalidArgumentError({ argument: 'records', message: `${where} appears twice in one batch; send each id once.` });
    seen.add(r.id);
    if (typeof r.text !== 'string') throw new InvalidArgumentError({ argument: 'records', message: `${where} has no text.` });
    if (!CATEGORIES.has(r.category)) {
      throw new InvalidArgumentError({
        argument: 'records',
        message: `${where} has unknown category ${JSON.stringify(r.category)}; use one of ${MEMORY_CATEGORIES.join(', ')}.`,
      });
    }
    if (r.vector !== null && r.vector !== undefined) {
      if (dimensions === 0) {
        throw new InvalidArgumentError({
          argument: 'records',
          message: `${where} carries a vector but this store is lexical-only (0 dimensions); drop the vector or reembed the store.`,
        });
      }
      if (r.vector.length !== dimensions) {
        throw new InvalidArgumentError({
          argument: 'records',
          code: 'INVALID_ARGUMENT',
          message: `${where} has a ${r.vector.length}-dimensional vector but the store holds ${dimensions} dimensions; embed it with the store's embedder.`,
        });
      }
    }
  }
}

export function toArrowData(records: readonly StoredMemory[], dimensions: number, layout: TableLayout = 'packed') {
  return recordsToArrow(records, dimensions, layout);
}

/** Wraps LanceDB failures in StorageError; Strata errors pass through unchanged. */
export async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (StrataError.isInstance(error)) throw error;
    throw new StorageError({ message: `LanceDB ${what} failed: ${(error as Error).message}`, cause: error });
  }
}
