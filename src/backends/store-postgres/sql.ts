import { InvalidArgumentError } from '../../errors/index.js';
import type { MemoryCategory, MemoryFilter, MemoryRecord, SourceKind, StoredMemory } from '../../spec/index.js';

/**
 * SQL building blocks. Caller values only ever travel as bind parameters (`Params`); the only
 * text spliced into statements is identifiers Strata chose itself (schema and table names
 * validated at construction), quoted by `ident`.
 */
export function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new InvalidArgumentError({
      argument: 'identifier',
      message: `Invalid SQL identifier ${JSON.stringify(name)}: use letters, digits and _ (max 63).`,
    });
  }
  return `"${name}"`;
}

/** Collects bind values and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

export function assertScopes(scopes: readonly string[] | undefined | null, argument = 'filter.scopes'): string[] {
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new InvalidArgumentError({
      argument,
      code: 'INVALID_SCOPE',
      message: 'No scopes given: every store read needs an explicit, non-empty scope set (e.g. ["global"]).',
    });
  }
  return scopes.map((s) => text(s, argument));
}

export function assertLimit(limit: number, argument = 'limit'): void {
  if (!Number.isInteger(limit) || limit <= 0) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be a positive integer, got ${limit}.` });
  }
}

/** Postgres text cannot hold NUL; say so instead of failing inside the driver. */
export function text(value: unknown, argument: string): string {
  if (typeof value !== 'string')
    throw new InvalidArgumentError({ argument, message: `Expected a string for ${argument}, got ${typeof value}.` });
  if (value.includes('\u0000'))
    throw new InvalidArgumentError({ argument, message: `${argument} contains a NUL character; remove it and retry.` });
  return value;
}

function texts(values: readonly unknown[], argument: string): string[] {
  if (!Array.isArray(values)) throw new InvalidArgumentError({ argument, message: `${argument} must be a list of strings.` });
  return values.map((v) => text(v, argument));
}

export function isoTime(value: unknown, argument: string): string {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(t))
    throw new InvalidArgumentError({ argument, message: `${argument} must be an ISO-8601 time, got ${JSON.stringify(value)}.` });
  return value as string;
}

/**
 * The WHERE conditions of a filter over alias `m`. Same semantics as every backend: scopes,
 * categories and ids are "one of", tags match any, dates are exclusive bounds, an empty list
 * matches nothing, history is excluded unless asked for.
 */
export function filterSql(filter: MemoryFilter, p: Params): string {
  const parts = [`m.scope = ANY(${p.add(assertScopes(filter.scopes), 'text[]')})`];
  if (!filter.includeHistory) parts.push('m.valid_to IS NULL');
  if (filter.categories) parts.push(`m.category = ANY(${p.add(texts(filter.categories, 'filter.categories'), 'text[]')})`);
  if (filter.ids) parts.push(`m.id = ANY(${p.add(texts(filter.ids, 'filter.ids'), 'text[]')})`);
  if (filter.tags) parts.push(`m.tags && ${p.add(texts(filter.tags, 'filter.tags'), 'text[]')}`);
  if (filter.createdAfter !== undefined)
    parts.push(`m.created_at > ${p.add(isoTime(filter.createdAfter, 'filter.createdAfter'), 'timestamptz')}`);
  if (filter.createdBefore !== undefined)
    parts.push(`m.created_at < ${p.add(isoTime(filter.createdBefore, 'filter.createdBefore'), 'timestamptz')}`);
  if (filter.sourceKind !== undefined) parts.push(`m.source_kind = ${p.add(text(filter.sourceKind, 'filter.sourceKind'))}`);
  return parts.join(' AND ');
}

/** Record columns of `m` (and access statistics from `a`), vector as pgvector text when asked. */
export function recordColumns(withVectors: boolean): string {
  const cols = [
    'm.id',
    'm.text',
    'm.category',
    'm.scope',
    'm.importance',
    'm.confidence',
    'm.tags',
    'm.source',
    'm.created_at',
    'm.updated_at',
    'm.valid_from',
    'm.valid_to',
    'm.supersedes',
    'm.superseded_by',
    'm.content_hash',
    'm.embedding_model',
    'coalesce(a.access_count, 0) AS access_count',
    'a.last_accessed_at',
  ];
  if (withVectors) cols.push('m.embedding::text AS embedding');
  return cols.join(', ');
}

export interface MemoryRow {
  id: string;
  text: string;
  category: string;
  scope: string;
  importance: number;
  confidence: number;
  tags: string[];
  source: { kind: SourceKind; agentId?: string; sessionKey?: string; messageIds?: string[] };
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  supersedes: string | null;
  superseded_by: string | null;
  content_hash: string;
  embedding_model: string;
  access_count: number;
  last_accessed_at: string | null;
  embedding?: string | null;
}

export function recordOf(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    text: row.text,
    category: row.category as MemoryCategory,
    scope: row.scope,
    importance: row.importance,
    confidence: row.confidence,
    tags: row.tags,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    supersedes: row.supersedes,
    supersededBy: row.superseded_by,
    accessCount: row.access_count,
    lastAccessedAt: row.last_accessed_at,
    contentHash: row.content_hash,
    embeddingModel: row.embedding_model,
  };
}

export function storedOf(row: MemoryRow): StoredMemory {
  return { ...recordOf(row), vector: row.embedding ? (JSON.parse(row.embedding) as number[]) : null };
}

/** One record as the JSON row that `jsonb_to_recordset` turns back into columns (see ROW_TYPE). */
export function jsonRow(r: StoredMemory): Record<string, unknown> {
  return {
    id: r.id,
    text: r.text,
    category: r.category,
    scope: r.scope,
    importance: r.importance,
    confidence: r.confidence,
    tags: r.tags,
    source: r.source,
    source_kind: r.source.kind,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    valid_from: r.validFrom,
    valid_to: r.validTo,
    supersedes: r.supersedes,
    superseded_by: r.supersededBy,
    content_hash: r.contentHash,
    embedding_model: r.embeddingModel,
    embedding: r.vector ?? null,
    access_count: r.accessCount ?? 0,
    last_accessed_at: r.lastAccessedAt ?? null,
  };
}

export function rowType(vectorType: string): string {
  return `r(id text, text text, category text, scope text, importance float8, confidence float8, tags text[], source jsonb,
    source_kind text, created_at timestamptz, updated_at timestamptz, valid_from timestamptz, valid_to timestamptz,
    supersedes text, superseded_by text, content_hash text, embedding_model text, embedding ${vectorType},
    access_count bigint, last_accessed_at timestamptz)`;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
