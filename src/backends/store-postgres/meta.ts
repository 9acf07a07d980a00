import type pg from 'pg';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import { MEMORY_CATEGORIES, type StoreMeta, type StoredMemory } from '../../spec/index.js';
import { ident, isoTime, text } from './sql.js';

export const SCHEMA_VERSION = 1;

export async function readMeta(client: pg.Pool | pg.ClientBase, s: string): Promise<StoreMeta | null> {
  const { rows } = await client.query<{ embedder_id: string; dimensions: number; schema_version: number; created_at: string }>(
    `SELECT embedder_id, dimensions, schema_version, created_at FROM ${s}.store_meta`,
  );
  const row = rows[0];
  return row
    ? { embedderId: row.embedder_id, dimensions: row.dimensions, schemaVersion: row.schema_version, createdAt: row.created_at }
    : null;
}

export function assertSameEmbedder(meta: StoreMeta, wanted: { embedderId: string; dimensions: number }): StoreMeta {
  if (meta.embedderId === wanted.embedderId && meta.dimensions === wanted.dimensions) return meta;
  throw new StorageError({
    code: 'EMBEDDER_MISMATCH',
    message:
      `This PostgreSQL store holds vectors from ${meta.embedderId} (${meta.dimensions} dimensions); the configured embedder is ` +
      `${wanted.embedderId} (${wanted.dimensions} dimensions). Run \`strata reembed\` to rebuild it with the new embedder, or configure ${meta.embedderId} again.`,
    details: {
      recorded: meta.embedderId,
      recordedDimensions: meta.dimensions,
      configured: wanted.embedderId,
      configuredDimensions: wanted.dimensions,
    },
  });
}

export function assertEmbedderArgs(options: { embedderId: string; dimensions: number }): void {
  if (!options.embedderId) throw new InvalidArgumentError({ argument: 'embedderId', message: 'The embedder id is required.' });
  if (!Number.isInteger(options.dimensions) || options.dimensions < 0 || options.dimensions > 16_000) {
    throw new InvalidArgumentError({
      argument: 'dimensions',
      message: `dimensions must be an integer from 0 to 16000, got ${options.dimensions}.`,
    });
  }
}

const CATEGORIES = new Set<string>(MEMORY_CATEGORIES);

/** Checks a whole batch before any of it is sent, so bad input never half-writes. */
export function validateBatch(records: readonly StoredMemory[], dimensions: number): void {
  const ids = new Set<string>();
  for (const r of records) {
    const at = `record ${JSON.stringify(r?.id)}`;
    if (typeof r?.id !== 'string' || r.id === '')
      throw new InvalidArgumentError({ argument: 'records', message: 'Every record needs a non-empty string id.' });
    if (ids.has(r.id))
      throw new InvalidArgumentError({ argument: 'records', message: `${at} appears twice in one batch; send each id once.` });
    ids.add(r.id);
    for (const key of ['id', 'text', 'scope', 'contentHash', 'embeddingModel'] as const) text(r[key], `${at}.${key}`);
    if (!CATEGORIES.has(r.category))
      throw new InvalidArgumentError({
        argument: 'records',
        message: `${at} has unknown category ${JSON.stringify(r.category)}; use one of ${MEMORY_CATEGORIES.join(', ')}.`,
      });
    for (const key of ['createdAt', 'updatedAt', 'validFrom'] as const) isoTime(r[key], `${at}.${key}`);
    for (const key of ['validTo', 'lastAccessedAt'] as const) if (r[key] !== null && r[key] !== undefined) isoTime(r[key], `${at}.${key}`);
    if (!Array.isArray(r.tags)) throw new InvalidArgumentError({ argument: 'records', message: `${at}.tags must be a list.` });
    r.tags.forEach((tag) => text(tag, `${at}.tags`));
    if (JSON.stringify(r.source ?? null).includes('\\u0000'))
      throw new InvalidArgumentError({ argument: 'records', message: `${at}.source contains a NUL character.` });
    const v = r.vector;
    if (v === null || v === undefined) continue;
    if (dimensions === 0)
      throw new InvalidArgumentError({
        argument: 'records',
        message: `${at} carries a vector but this store is lexical-only (0 dimensions); drop the vector or reembed the store.`,
      });
    if (v.length !== dimensions)
      throw new InvalidArgumentError({
        argument: 'records',
        message: `${at} has a ${v.length}-dimensional vector but the store holds ${dimensions} dimensions; embed it with the store's embedder.`,
      });
    if (!v.every(Number.isFinite))
      throw new InvalidArgumentError({ argument: 'records', message: `${at} has a vector with a non-finite number.` });
  }
}

export function qualified(schema: string, table: string): string {
  return `${ident(schema)}.${ident(table)}`;
}
