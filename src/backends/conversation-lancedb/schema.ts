import * as arrow from 'apache-arrow';
import type { ConversationHost, ConversationRole } from '../../spec/conversation.js';
import type { ConversationDocument, StoredConversationDocument } from '../../spec/conversation-index.js';

/**
 * Row layout of the conversation table (schema version 3: `embedding_text` added). snake_case because LanceDB's SQL
 * planner folds unquoted identifiers; names are constants, never caller values.
 */
export const C = {
  id: 'id',
  position: 'position',
  sessionKey: 'session_key',
  sessionId: 'session_id',
  agentId: 'agent_id',
  host: 'host',
  entryId: 'entry_id',
  role: 'role',
  content: 'content',
  timestamp: 'timestamp_ms',
  recordedAt: 'recorded_at',
  document: 'document',
  embeddingText: 'embedding_text',
  embedded: 'embedded',
  vector: 'vector',
} as const;

/** Everything but the vector: what search and reads return. */
export const DOCUMENT_COLUMNS: string[] = Object.values(C).filter((c) => c !== C.vector);

const utf8 = (name: string) => new arrow.Field(name, new arrow.Utf8(), false);

export function buildSchema(dimensions: number): arrow.Schema {
  const fields: arrow.Field[] = [
    utf8(C.id),
    utf8(C.position),
    utf8(C.sessionKey),
    utf8(C.sessionId),
    utf8(C.agentId),
    utf8(C.host),
    utf8(C.entryId),
    utf8(C.role),
    utf8(C.content),
    new arrow.Field(C.timestamp, new arrow.Float64(), false),
    utf8(C.recordedAt),
    utf8(C.document),
    utf8(C.embeddingText),
    new arrow.Field(C.embedded, new arrow.Bool(), false),
  ];
  if (dimensions > 0)
    fields.push(new arrow.Field(C.vector, new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), true));
  return new arrow.Schema(fields);
}

export function documentToRow(d: ConversationDocument, dimensions: number, vector: number[] | null = null): Record<string, unknown> {
  const r = d.record;
  const row: Record<string, unknown> = {
    [C.id]: d.id,
    [C.position]: d.position,
    [C.sessionKey]: r.sessionKey,
    [C.sessionId]: r.sessionId,
    [C.agentId]: r.agentId,
    [C.host]: r.host,
    [C.entryId]: r.id,
    [C.role]: r.role,
    [C.content]: r.content,
    [C.timestamp]: r.timestamp,
    [C.recordedAt]: r.recordedAt,
    [C.document]: d.text,
    [C.embeddingText]: d.embeddingText,
    // Without an embedder there is nothing to wait for.
    [C.embedded]: vector !== null || dimensions === 0,
  };
  if (dimensions > 0) row[C.vector] = vector;
  return row;
}

interface ColumnSource {
  numRows: number;
  getChild(name: string): { get(index: number): unknown } | null;
}

/** Rows as documents, with the `extra` column (a score or distance) when asked for. */
export function documentsFromArrow(source: ColumnSource, extra?: string): Array<StoredConversationDocument & { extra: number }> {
  const cols = new Map<string, { get(index: number): unknown } | null>();
  const get = (name: string, i: number) => {
    if (!cols.has(name)) cols.set(name, source.getChild(name));
    return cols.get(name)?.get(i);
  };
  const out: Array<StoredConversationDocument & { extra: number }> = [];
  for (let i = 0; i < source.numRows; i += 1) {
    const vector = get(C.vector, i) as { toArray?: () => ArrayLike<number> } | null | undefined;
    out.push({
      id: String(get(C.id, i)),
      position: String(get(C.position, i)),
      text: String(get(C.document, i)),
      embeddingText: String(get(C.embeddingText, i)),
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
      vector: vector?.toArray ? Array.from(vector.toArray()) : null,
      extra: extra ? Number(get(extra, i) ?? Number.NaN) : 0,
    });
  }
  return out;
}
