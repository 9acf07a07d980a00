import type { ConversationHost, ConversationRole } from '../../spec/conversation.js';
import type { ConversationDocument, StoredConversationDocument } from '../../spec/conversation-index.js';
import { text } from '../store-postgres/sql.js';

/**
 * One document as columns of `conversation_turns`, declared once: the upsert's recordset type,
 * the column lists of reads and the mapping both ways come from this table, so a new stored field
 * (say, a separate embedding text per turn) is one entry here plus a migration adding the column.
 */
interface Column {
  name: string;
  sqlType: string;
  of(d: ConversationDocument): unknown;
  /** Where the value goes back into a document. */
  set(d: ConversationDocument, value: unknown): void;
}

const recordText = (key: 'sessionKey' | 'sessionId' | 'agentId' | 'id' | 'content' | 'recordedAt', name: string): Column => ({
  name,
  sqlType: 'text',
  of: (d) => d.record[key],
  set: (d, v) => void (d.record[key] = String(v)),
});

export const COLUMNS: readonly Column[] = [
  { name: 'id', sqlType: 'text', of: (d) => d.id, set: (d, v) => void (d.id = String(v)) },
  { name: 'position', sqlType: 'text', of: (d) => d.position, set: (d, v) => void (d.position = String(v)) },
  recordText('sessionKey', 'session_key'),
  recordText('sessionId', 'session_id'),
  recordText('agentId', 'agent_id'),
  { name: 'host', sqlType: 'text', of: (d) => d.record.host, set: (d, v) => void (d.record.host = String(v) as ConversationHost) },
  recordText('id', 'entry_id'),
  { name: 'role', sqlType: 'text', of: (d) => d.record.role, set: (d, v) => void (d.record.role = String(v) as ConversationRole) },
  recordText('content', 'content'),
  { name: 'timestamp_ms', sqlType: 'float8', of: (d) => d.record.timestamp, set: (d, v) => void (d.record.timestamp = Number(v)) },
  recordText('recordedAt', 'recorded_at'),
  { name: 'text', sqlType: 'text', of: (d) => d.text, set: (d, v) => void (d.text = String(v)) },
  { name: 'embedding_text', sqlType: 'text', of: (d) => d.embeddingText, set: (d, v) => void (d.embeddingText = String(v)) },
];

export const COLUMN_NAMES = COLUMNS.map((c) => c.name);

/** `c.id, c.position, ...` for reads over alias `alias`. */
export const selectList = (alias: string): string => COLUMN_NAMES.map((n) => `${alias}.${n}`).join(', ');

/** The recordset type of `jsonb_to_recordset` for upserts. */
export const RECORDSET_TYPE = `r(${COLUMNS.map((c) => `${c.name} ${c.sqlType}`).join(', ')})`;

/** A document as the JSON object the recordset reads; NUL (which PostgreSQL text cannot hold) is refused up front. */
export function jsonOf(d: ConversationDocument): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of COLUMNS) {
    const value = c.of(d);
    row[c.name] = c.sqlType === 'text' ? text(value, `documents[${JSON.stringify(d.id)}].${c.name}`) : value;
  }
  return row;
}

export type TurnRow = Record<string, unknown> & { embedding?: string | null };

export function documentOf(row: TurnRow): ConversationDocument {
  const d = { record: {} } as ConversationDocument;
  for (const c of COLUMNS) c.set(d, row[c.name]);
  return d;
}

export const vectorOf = (row: TurnRow): number[] | null =>
  typeof row.embedding === 'string' ? (JSON.parse(row.embedding) as number[]) : null;

export function storedOf(row: TurnRow): StoredConversationDocument {
  return { ...documentOf(row), vector: vectorOf(row) };
}
