/**
 * Structured filters of the conversation index as LanceDB where clauses. Values are escaped here
 * (never concatenated raw); column names are constants.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationFilter } from '../../spec/conversation-index.js';
import { C } from './schema.js';

const IN_CHUNK = 500;

export function sqlString(value: string, argument: string): string {
  if (value.includes('\u0000'))
    throw new InvalidArgumentError({ argument, message: `${argument} contains a NUL character; remove it and retry.` });
  return `'${value.replaceAll("'", "''")}'`;
}

export const inList = (column: string, values: string[], argument: string) =>
  `${column} IN (${values.map((v) => sqlString(v, argument)).join(', ')})`;

export function chunks<T>(items: T[], size = IN_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The filter as a where clause; null when it matches nothing (an empty agent list). */
export function whereOf(filter: ConversationFilter): string | null | undefined {
  const parts: string[] = [];
  if (filter.agentIds !== undefined) {
    if (filter.agentIds.length === 0) return null;
    parts.push(inList(C.agentId, filter.agentIds, 'agentIds'));
  }
  if (filter.sessionKey !== undefined) parts.push(`${C.sessionKey} = ${sqlString(filter.sessionKey, 'sessionKey')}`);
  if (filter.roles !== undefined) {
    if (filter.roles.length === 0) return null;
    parts.push(inList(C.role, filter.roles, 'roles'));
  }
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}
