import * as arrow from 'apache-arrow';
import type { ConversationHost, ConversationRole, L0Record } from '../../spec/conversation.js';

/**
 * Row layout of the conversation table. snake_case because LanceDB's SQL planner folds unquoted
 * identifiers; names are constants, never caller values. `row_key` (host, agent, session, entry)
 * makes `add` idempotent through merge-insert.
 */
export const C = {
  rowKey: 'row_key',
  sessionKey: 'session_key',
  sessionId: 'session_id',
  agentId: 'agent_id',
  host: 'host',
  entryId: 'entry_id',
  role: 'role',
  content: 'content',
  timestamp: 'timestamp_ms',
  recordedAt: 'recorded_at',
  embedded: 'embedded',
  vector: 'vector',
} as const;

export const RECORD_COLUMNS: string[] = Object.values(C).filter((c) => c !== C.vector && c !== C.embedded);

const utf8 = (name: string) => new arrow.Field(name, new arrow.Utf8(), false);

export function buildSchema(dimensions: number): arrow.Schema {
  const fields: arrow.Field[] = [
    utf8(C.rowKey), utf8(C.sessionKey), utf8(C.sessionId), utf8(C.agentId), utf8(C.host), utf8(C.entryId), utf8(C.role), utf8(C.content),
    new arrow.Field(C.timestamp, new arrow.Float64(), false),
    utf8(C.recordedAt),
    new arrow.Field(C.embedded, new arrow.Bool(), false),
  ];
  if (dimensions > 0) fields.push(new arrow.Field(C.vector, new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), true));
  return new arrow.Schema(fields);
}

export function rowKey(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId' | 'id'>): string {
  return JSON.stringify([r.host, r.agentId, r.sessionId, r.id]);
}

export function recordToRow(r: L0Record, dimensions: number, vector: number[] | null = null): Record<string, unknown> {
  const row: Record<string, unknown> = {
    [C.rowKey]: rowKey(r),
    [C.sessionKey]: r.sessionKey,
    [C.sessionId]: r.sessionId,
    [C.agentId]: r.agentId,
    [C.host]: r.host,
    [C.entryId]: r.id,
    [C.role]: r.role,
    [C.content]: r.content,
    [C.timestamp]: r.timestamp,
    [C.recordedAt]: r.recordedAt,
    [C.embedded]: vector !== null || dimensions === 0,
  };
  if (dimensions > 0) row[C.vector] = vector;
  return row;
}

interface ColumnSource {
  numRows: number;
  getChild(name: string): { get(index: number): unknown } | null;
}

export function recordsFromArrow(source: ColumnSource, extra?: string): Array<{ record: L0Record; extra: number }> {
  const col = (name: string) => source.getChild(name);
  const get = (name: string, i: number) => col(name)?.get(i);
  const out: Array<{ record: L0Record; extra: number }> = [];
  for (let i = 0; i < source.numRows; i += 1) {
    out.push({
      record: {
        sessionKey: String(get(C.sessionKey, i)),
        sessionId: String(get(C.sessionId, i)),
        agentId: String(get(C.agentId, i)),
        host: String(get(C.host, i)) as ConversationHost,
        id: String(get(C.entryId, i)),
        role: String(get(C.role, i)) as ConversationRole,
        content: String(get(C.content, i)),
        timestamp: Number(get(C.timestamp, i)),
        recordedAt: String(get(C.recordedAt, i)),
      },
      extra: extra ? Number(get(extra, i) ?? Number.NaN) : 0,
    });
  }
  return out;
}
