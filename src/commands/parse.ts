import { InvalidArgumentError as CommanderArgError } from 'commander';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../spec/memory-record.js';

/** Commander argument parsers: a bad value becomes a usage error (exit 2) naming the option. */
export function parseUnit(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new CommanderArgError('must be a number between 0 and 1.');
  return n;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CommanderArgError('must be a positive integer.');
  return n;
}

export function parseCategory(value: string): MemoryCategory {
  if (!(MEMORY_CATEGORIES as readonly string[]).includes(value)) {
    throw new CommanderArgError(`must be one of ${MEMORY_CATEGORIES.join(', ')}.`);
  }
  return value as MemoryCategory;
}

export function collectCategory(value: string, previous: MemoryCategory[] = []): MemoryCategory[] {
  return [...previous, parseCategory(value)];
}
