import type { StoredMemory } from '../../spec/index.js';
import { ident, jsonRow, rowType, type Params } from './sql.js';
import type { StoreState } from './state.js';
import { tsvLateral } from './text-search.js';

/**
 * Batched writes as single statements: the whole batch travels as one jsonb parameter, expanded
 * by `jsonb_to_recordset` (pgvector parses the JSON number arrays), with the tsvector built in the
 * same statement. One statement = all rows or none.
 */
const COLUMNS = [
  'id',
  'text',
  'category',
  'scope',
  'importance',
  'confidence',
  'tags',
  'source',
  'source_kind',
  'created_at',
  'updated_at',
  'valid_from',
  'valid_to',
  'supersedes',
  'superseded_by',
  'content_hash',
  'embedding_model',
] as const;

function recordset(st: StoreState, records: readonly StoredMemory[], p: Params): string {
  const rows = p.add(JSON.stringify(records.map(jsonRow)), 'jsonb');
  const f = tsvLateral(st.s, st.textSearch.index, p);
  return `SELECT r.*, f.tsv, ${f.docLen} AS doc_len FROM jsonb_to_recordset(${rows}) AS ${rowType(st.vector)} ${f.join}`;
}

/**
 * Inserts into `table` (the live `memories`, or a rebuild table); access statistics the records
 * carry (imports) go to `memory_access` when `withAccess`.
 */
export function insertSql(options: {
  st: StoreState;
  table: string;
  records: readonly StoredMemory[];
  p: Params;
  withAccess?: boolean;
}): string {
  const { st, p } = options;
  const cols = [...COLUMNS, 'embedding', 'tsv', 'doc_len'].join(', ');
  const access =
    options.withAccess === false
      ? ''
      : `,
    acc AS (INSERT INTO ${st.s}.memory_access AS a (id, access_count, last_accessed_at)
      SELECT id, access_count, last_accessed_at FROM r WHERE access_count > 0 OR last_accessed_at IS NOT NULL ORDER BY id
      ON CONFLICT (id) DO UPDATE SET access_count = excluded.access_count, last_accessed_at = excluded.last_accessed_at)`;
  return `WITH r AS MATERIALIZED (${recordset(st, options.records, p)}),
    ins AS (INSERT INTO ${st.s}.${ident(options.table)} (${cols}) SELECT ${cols} FROM r)${access}
    SELECT 1`;
}

/**
 * Replaces whole records by id, keeping the stored vector where the record has none and never
 * touching access statistics (those are `touch`'s). Returns the ids it found.
 */
export function updateSql(options: { st: StoreState; records: readonly StoredMemory[]; p: Params }): string {
  const { st, p } = options;
  const sets = [
    ...COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = r.${c}`),
    'embedding = coalesce(r.embedding, m.embedding)',
    'tsv = r.tsv',
    'doc_len = r.doc_len',
  ];
  return `WITH r AS MATERIALIZED (${recordset(st, options.records, p)})
    UPDATE ${st.s}.memories m SET ${sets.join(', ')} FROM r WHERE m.id = r.id RETURNING m.id`;
}
