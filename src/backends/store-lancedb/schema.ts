import * as arrow from 'apache-arrow';
import type { MemoryCategory, MemorySource, StoredMemory } from '../../spec/index.js';

/**
 * Row layout of the memories table. Columns are snake_case because LanceDB's SQL planner folds
 * unquoted identifiers to lower case; names are constants and never come from callers.
 * `tags` is a list column so `array_has_any` can filter it; the rest of `source` is kept as JSON
 * (only `source_kind` is ever filtered on).
 *
 * Schema 2 adds `record_json`, the whole record but id, text and vector, and reads select
 * [id, text, record_json] instead of every column: LanceDB fetches each selected column of each
 * hit separately, and at 100k rows selecting 19 columns cost a search ~6 ms more than selecting 4.
 * The typed columns stay for filters, ordering and stats. Tables made before schema 2 are still
 * read and written column by column (`TableLayout`); a rebuild (`strata reembed`) upgrades them.
 */
export const SCHEMA_VERSION = 2;

/** `packed`: the table has `record_json` (schema 2); `columns`: schema 1. */
export type TableLayout = 'packed' | 'columns';

export const COLUMNS = {
  id: 'id',
  text: 'text',
  category: 'category',
  scope: 'scope',
  importance: 'importance',
  confidence: 'confidence',
  tags: 'tags',
  sourceKind: 'source_kind',
  source: 'source_json',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  validFrom: 'valid_from',
  validTo: 'valid_to',
  supersedes: 'supersedes',
  supersededBy: 'superseded_by',
  accessCount: 'access_count',
  lastAccessedAt: 'last_accessed_at',
  contentHash: 'content_hash',
  embeddingModel: 'embedding_model',
  packed: 'record_json',
  vector: 'vector',
} as const;

const utf8 = (name: string, nullable = false) => new arrow.Field(name, new arrow.Utf8(), nullable);

export function buildSchema(dimensions: number, layout: TableLayout = 'packed'): arrow.Schema {
  const fields: arrow.Field[] = [
    utf8(COLUMNS.id),
    utf8(COLUMNS.text),
    utf8(COLUMNS.category),
    utf8(COLUMNS.scope),
    new arrow.Field(COLUMNS.importance, new arrow.Float64(), false),
    new arrow.Field(COLUMNS.confidence, new arrow.Float64(), false),
    new arrow.Field(COLUMNS.tags, new arrow.List(new arrow.Field('item', new arrow.Utf8(), true)), false),
    utf8(COLUMNS.sourceKind),
    utf8(COLUMNS.source),
    utf8(COLUMNS.createdAt),
    utf8(COLUMNS.updatedAt),
    utf8(COLUMNS.validFrom),
    utf8(COLUMNS.validTo, true),
    utf8(COLUMNS.supersedes, true),
    utf8(COLUMNS.supersededBy, true),
    new arrow.Field(COLUMNS.accessCount, new arrow.Int32(), false),
    utf8(COLUMNS.lastAccessedAt, true),
    utf8(COLUMNS.contentHash),
    utf8(COLUMNS.embeddingModel),
  ];
  if (layout === 'packed') fields.push(utf8(COLUMNS.packed));
  if (dimensions > 0) {
    fields.push(
      new arrow.Field(COLUMNS.vector, new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), true),
    );
  }
  return new arrow.Schema(fields);
}

/** Every typed column: what schema-1 reads select (the vector only when asked for). */
export const RECORD_COLUMNS: string[] = Object.values(COLUMNS).filter((c) => c !== COLUMNS.vector && c !== COLUMNS.packed);
const PACKED_READ_COLUMNS: string[] = [COLUMNS.id, COLUMNS.text, COLUMNS.packed];

/** What a read selects from a table of this layout. */
export function readColumns(layout: TableLayout, withVectors = false): string[] {
  const base = layout === 'packed' ? PACKED_READ_COLUMNS : RECORD_COLUMNS;
  return withVectors ? [...base, COLUMNS.vector] : base;
}

type PackedFields = Omit<StoredMemory, 'id' | 'text' | 'vector'>;

function packRecord(record: StoredMemory): string {
  const { id: _id, text: _text, vector: _vector, ...rest } = record;
  return JSON.stringify(rest satisfies PackedFields);
}

export type Row = Record<string, unknown>;

export function recordToRow(record: StoredMemory, dimensions: number, layout: TableLayout = 'packed'): Row {
  const { kind, ...rest } = record.source;
  const row: Row = {
    [COLUMNS.id]: record.id,
    [COLUMNS.text]: record.text,
    [COLUMNS.category]: record.category,
    [COLUMNS.scope]: record.scope,
    [COLUMNS.importance]: record.importance,
    [COLUMNS.confidence]: record.confidence,
    [COLUMNS.tags]: [...record.tags],
    [COLUMNS.sourceKind]: kind,
    [COLUMNS.source]: JSON.stringify(rest),
    [COLUMNS.createdAt]: record.createdAt,
    [COLUMNS.updatedAt]: record.updatedAt,
    [COLUMNS.validFrom]: record.validFrom,
    [COLUMNS.validTo]: record.validTo,
    [COLUMNS.supersedes]: record.supersedes,
    [COLUMNS.supersededBy]: record.supersededBy,
    [COLUMNS.accessCount]: record.accessCount,
    [COLUMNS.lastAccessedAt]: record.lastAccessedAt,
    [COLUMNS.contentHash]: record.contentHash,
    [COLUMNS.embeddingModel]: record.embeddingModel,
  };
  if (layout === 'packed') row[COLUMNS.packed] = packRecord(record);
  if (dimensions > 0) row[COLUMNS.vector] = record.vector;
  return row;
}

/**
 * Builds the Arrow table column by column: the vector column is one Float32Array, which is ~10x
 * faster than lancedb's row-wise `makeArrowTable` (0.7-2 s per 5,000 rows of 512 dimensions).
 */
export function recordsToArrow(records: readonly StoredMemory[], dimensions: number, layout: TableLayout = 'packed'): arrow.Table {
  const schema = buildSchema(dimensions, layout);
  const rows = records.map((r) => recordToRow(r, dimensions, layout));
  const children = schema.fields.map((field) => {
    if (field.name !== COLUMNS.vector)
      return arrow.vectorFromArray(
        rows.map((r) => r[field.name]),
        field.type,
      ).data[0]!;
    const flat = new Float32Array(records.length * dimensions);
    const validity = new Uint8Array(Math.ceil(records.length / 8));
    let nullCount = 0;
    records.forEach((r, i) => {
      if (r.vector === null || r.vector === undefined) {
        nullCount++;
        return;
      }
      flat.set(r.vector, i * dimensions);
      validity[i >> 3]! |= 1 << (i & 7);
    });
    const values = arrow.makeData({ type: new arrow.Float32(), length: flat.length, data: flat });
    return arrow.makeData({
      type: field.type as arrow.FixedSizeList<arrow.Float32>,
      length: records.length,
      nullCount,
      nullBitmap: validity,
      child: values,
    });
  });
  const struct = arrow.makeData({ type: new arrow.Struct(schema.fields), length: records.length, nullCount: 0, children });
  return new arrow.Table([new arrow.RecordBatch(schema, struct)]);
}

/** Column-wise access shared by Arrow tables and record batches. */
interface ColumnSource {
  numRows: number;
  getChild(name: string): { get(index: number): unknown } | null;
}

function listToArray(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  const withToArray = value as { toArray?: () => ArrayLike<unknown> };
  return Array.from(withToArray.toArray ? withToArray.toArray() : (value as ArrayLike<unknown>));
}

const nullableNumber = (value: unknown) => (value === null || value === undefined ? Number.NaN : Number(value));

/** Converts Arrow results to records; extra columns (`_score`, `_distance`) are returned per row. */
export function rowsFromArrow(
  source: ColumnSource,
  options: { withVectors: boolean; extra?: string },
): Array<{ record: StoredMemory; extra: number }> {
  const col = (name: string) => source.getChild(name);
  const cols = Object.fromEntries(RECORD_COLUMNS.map((name) => [name, col(name)]));
  const vectorCol = options.withVectors ? col(COLUMNS.vector) : null;
  const extraCol = options.extra ? col(options.extra) : null;
  const str = (name: string, i: number) => cols[name]?.get(i) as string;
  const strOrNull = (name: string, i: number) => (cols[name]?.get(i) as string | null | undefined) ?? null;
  const out: Array<{ record: StoredMemory; extra: number }> = [];
  const packedCol = col(COLUMNS.packed);
  if (packedCol) {
    for (let i = 0; i < source.numRows; i++) {
      const vector = vectorCol?.get(i);
      const rest = JSON.parse(packedCol.get(i) as string) as PackedFields;
      out.push({
        record: {
          id: str(COLUMNS.id, i),
          text: str(COLUMNS.text, i),
          ...rest,
          vector: vector === null || vector === undefined ? null : (listToArray(vector) as number[]),
        },
        extra: extraCol ? nullableNumber(extraCol.get(i)) : 0,
      });
    }
    return out;
  }
  for (let i = 0; i < source.numRows; i++) {
    const sourceRest = JSON.parse(str(COLUMNS.source, i) || '{}') as Omit<MemorySource, 'kind'>;
    const vector = vectorCol?.get(i);
    out.push({
      record: {
        id: str(COLUMNS.id, i),
        text: str(COLUMNS.text, i),
        category: str(COLUMNS.category, i) as MemoryCategory,
        scope: str(COLUMNS.scope, i),
        importance: Number(cols[COLUMNS.importance]?.get(i)),
        confidence: Number(cols[COLUMNS.confidence]?.get(i)),
        tags: listToArray(cols[COLUMNS.tags]?.get(i)) as string[],
        source: { kind: str(COLUMNS.sourceKind, i) as MemorySource['kind'], ...sourceRest },
        createdAt: str(COLUMNS.createdAt, i),
        updatedAt: str(COLUMNS.updatedAt, i),
        validFrom: str(COLUMNS.validFrom, i),
        validTo: strOrNull(COLUMNS.validTo, i),
        supersedes: strOrNull(COLUMNS.supersedes, i),
        supersededBy: strOrNull(COLUMNS.supersededBy, i),
        accessCount: Number(cols[COLUMNS.accessCount]?.get(i)),
        lastAccessedAt: strOrNull(COLUMNS.lastAccessedAt, i),
        contentHash: str(COLUMNS.contentHash, i),
        embeddingModel: str(COLUMNS.embeddingModel, i),
        vector: vector === null || vector === undefined ? null : (listToArray(vector) as number[]),
      },
      extra: extraCol ? nullableNumber(extraCol.get(i)) : 0,
    });
  }
  return out;
}
