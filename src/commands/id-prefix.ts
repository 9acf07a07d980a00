/**
 * Memory ids by prefix, like git's short hashes: a unique prefix of at least 8 characters names a
 * memory in the caller's scopes; an ambiguous one is an error listing the matches.
 */
import type { OperationsView } from '../core/ops/index.js';
import { InvalidArgumentError } from '../errors/index.js';

const FULL_ID_LENGTH = 26;
export const MIN_PREFIX = 8;

export async function resolveId(ops: OperationsView, raw: string): Promise<string> {
  if (raw.length >= FULL_ID_LENGTH) return raw;
  if (raw.length < MIN_PREFIX) {
    throw new InvalidArgumentError({
      argument: 'id',
      message: `${JSON.stringify(raw)} is too short for an id prefix: give at least ${MIN_PREFIX} characters (or the whole id).`,
    });
  }
  const prefix = raw.toUpperCase();
  const matches: string[] = [];
  for await (const line of await ops.run('export', { includeHistory: true })) {
    const id = (JSON.parse(line) as { id: string }).id;
    if (id.toUpperCase().startsWith(prefix)) matches.push(id);
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const shown = matches.slice(0, 10).join(', ') + (matches.length > 10 ? `, ... (${matches.length} in all)` : '');
    throw new InvalidArgumentError({
      argument: 'id',
      message: `Id prefix ${raw} is ambiguous: it matches ${shown}. Give more characters.`,
    });
  }
  return raw; // no match: the operation reports it as not found (or finds its history)
}

export function resolveIds(ops: OperationsView, raws: string[]): Promise<string[]> {
  return Promise.all(raws.map((r) => resolveId(ops, r)));
}
