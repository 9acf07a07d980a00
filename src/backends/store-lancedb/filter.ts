import { InvalidArgumentError } from '../../errors/index.js';
import type { MemoryFilter } from '../../spec/index.js';
import { COLUMNS } from './schema.js';

/**
 * Translates structured filters into LanceDB (DataFusion) predicates. Every caller value goes
 * through `sqlString`, which produces a standard SQL literal: quotes are doubled and backslashes
 * are not escape characters in DataFusion, so nothing can close the literal early. Column names
 * are constants from schema.ts.
 */
export function sqlString(value: string, argument = 'value'): string {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError({ argument, message: `Expected a string for ${argument}, got ${typeof value}.` });
  }
  if (value.includes('\u0000')) {
    throw new InvalidArgumentError({ argument, message: `${argument} contains a NUL character; remove it and retry.` });
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlList(values: readonly string[], argument: string): string {
  return values.map((v) => sqlString(v, argument)).join(', ');
}

/** `column IN (...)`; an empty list matches nothing rather than everything. */
export function inList(column: string, values: readonly string[], argument: string): string {
  if (values.length === 0) return 'FALSE';
  return `${column} IN (${sqlList(values, argument)})`;
}

export function assertScopes(scopes: readonly string[] | undefined, argument = 'filter.scopes'): readonly string[] {
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new InvalidArgumentError({
      argument,
      code: 'INVALID_SCOPE',
      message: 'No scopes given: every store read needs an explicit, non-empty scope set (e.g. ["global"]).',
    });
  }
  return scopes;
}

/**
 * Semantics: scopes/categories/ids are "one of"; `tags` matches records carrying ANY of the given
 * tags; createdAfter/createdBefore are exclusive bounds compared as ISO-8601 strings; an empty
 * list for categories/ids/tags matches nothing.
 */
export function filterToWhere(filter: MemoryFilter): string {
  const parts = [inList(COLUMNS.scope, assertScopes(filter.scopes), 'filter.scopes')];
  if (!filter.includeHistory) parts.push(`${COLUMNS.validTo} IS NULL`);
  if (filter.categories) parts.push(inList(COLUMNS.category, filter.categories, 'filter.categories'));
  if (filter.ids) parts.push(inList(COLUMNS.id, filter.ids, 'filter.ids'));
  if (filter.tags) {
    parts.push(filter.tags.length === 0 ? 'FALSE' : `array_has_any(${COLUMNS.tags}, make_array(${sqlList(filter.tags, 'filter.tags')}))`);
  }
  if (filter.createdAfter !== undefined) parts.push(`${COLUMNS.createdAt} > ${sqlString(filter.createdAfter, 'filter.createdAfter')}`);
  if (filter.createdBefore !== undefined) parts.push(`${COLUMNS.createdAt} < ${sqlString(filter.createdBefore, 'filter.createdBefore')}`);
  if (filter.sourceKind !== undefined) parts.push(`${COLUMNS.sourceKind} = ${sqlString(filter.sourceKind, 'filter.sourceKind')}`);
  return parts.map((p) => `(${p})`).join(' AND ');
}
