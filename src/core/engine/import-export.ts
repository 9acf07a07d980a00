import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { MemoryRecord, StoredMemory } from '../../spec/memory-record.js';
import { assertScopeSet } from '../scope.js';
import { newId } from '../write/ids.js';
import type { EngineContext } from './context.js';
import { importLineSchema, type ImportLine } from './record-schema.js';
import { prepareRecord } from './write-path.js';
import type { ProgressEvent } from './types.js';

export interface ExportOptions {
  /** Scopes to export; omitted = every scope (export is an owner's operation). */
  scopes?: string[];
  /** Default true: history (superseded) rows are part of a full export. */
  includeHistory?: boolean;
  batchSize?: number;
}

/** Streams every record as one JSON object per line; memory stays flat whatever the row count. */
export async function* exportRecords(ctx: EngineContext, options: ExportOptions = {}): AsyncGenerator<string> {
  const scopes = options.scopes ? assertScopeSet(options.scopes) : null;
  for await (const batch of ctx.store.scan({ scopes, batchSize: options.batchSize ?? 1000 })) {
    for (const row of batch) {
      if (options.includeHistory === false && row.validTo !== null) continue;
      const { vector: _vector, ...record } = row;
      yield JSON.stringify(record) + '\n';
    }
  }
}

export interface ImportOptions {
  input: Readable;
  batchSize?: number;
  onProgress?: (e: ProgressEvent) => void;
  abortSignal?: AbortSignal;
  /** Validate and count what would be imported (ids present, duplicates), writing nothing. */
  dryRun?: boolean;
  /** Put every imported memory in this scope, whatever the line says. */
  scope?: string;
}

export interface ImportReport {
  dryRun?: boolean;
  lines: number;
  imported: number;
  skippedExisting: number;
  skippedDuplicate: number;
  invalid: Array<{ line: number; error: string }>;
}

function fromLine(ctx: EngineContext, line: ImportLine): MemoryRecord {
  const base = prepareRecord(ctx, {
    text: line.text,
    scope: line.scope,
    category: line.category,
    importance: line.importance,
    confidence: line.confidence,
    tags: line.tags,
    source: line.source ?? { kind: 'import' },
    validFrom: line.validFrom,
  }).record;
  return {
    ...base,
    id: line.id ? line.id.toUpperCase() : newId(),
    createdAt: line.createdAt ? new Date(line.createdAt).toISOString() : base.createdAt,
    updatedAt: line.updatedAt ? new Date(line.updatedAt).toISOString() : base.updatedAt,
    validTo: line.validTo ? new Date(line.validTo).toISOString() : null,
    supersedes: line.supersedes ?? null,
    supersededBy: line.supersededBy ?? null,
    accessCount: line.accessCount ?? 0,
    lastAccessedAt: line.lastAccessedAt ?? null,
  };
}

/**
 * Imports JSONL: every line validated, bad lines reported by number, the rest imported in
 * batches. Idempotent: ids already present and exact duplicates (scope + hash) are skipped, so
 * an import killed midway can simply be run again.
 */
export async function importRecords(ctx: EngineContext, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = {
    ...(options.dryRun ? { dryRun: true } : {}),
    lines: 0,
    imported: 0,
    skippedExisting: 0,
    skippedDuplicate: 0,
    invalid: [],
  };
  const scope = options.scope === undefined ? undefined : assertScopeSet([options.scope])[0];
  const batchSize = options.batchSize ?? 500;
  let batch: MemoryRecord[] = [];
  if (!options.dryRun) await ctx.store.initMeta({ embedderId: ctx.embedderId, dimensions: ctx.dimensions });

  const flush = async () => {
    if (batch.length === 0) return;
    const records = batch;
    batch = [];
    const vectors =
      ctx.dimensions > 0 && !options.dryRun
        ? await ctx.embeddings.embedDocuments({ texts: records.map((r) => r.text), abortSignal: options.abortSignal })
        : records.map(() => null);
    await ctx.store.withWriteLock(async () => {
      const existing = await ctx.store.existingIds({ ids: records.map((r) => r.id) });
      const fresh: StoredMemory[] = [];
      const byScope = new Map<string, Set<string>>();
      for (const [i, r] of records.entries()) {
        if (existing.has(r.id)) {
          report.skippedExisting++;
          continue;
        }
        fresh.push({ ...r, vector: vectors?.[i] ?? null });
      }
      // Exact-duplicate check for current records only; history rows may legitimately repeat text.
      for (const r of fresh) if (r.validTo === null) byScope.set(r.scope, (byScope.get(r.scope) ?? new Set()).add(r.contentHash));
      const dupes = new Set<string>();
      for (const [scope, hashes] of byScope) {
        for (const hit of await ctx.store.findByHash({ scope, contentHashes: [...hashes] })) {
          if (hit.validTo === null) dupes.add(`${scope}\u0000${hit.contentHash}`);
        }
      }
      const toInsert: StoredMemory[] = [];
      for (const r of fresh) {
        const key = `${r.scope}\u0000${r.contentHash}`;
        if (r.validTo === null && dupes.has(key)) {
          report.skippedDuplicate++;
          continue;
        }
        if (r.validTo === null) dupes.add(key);
        toInsert.push(r);
      }
      if (toInsert.length > 0 && !options.dryRun) await ctx.store.insert({ records: toInsert });
      report.imported += toInsert.length;
    });
    options.onProgress?.({ done: report.lines });
  };

  const lines = createInterface({ input: options.input, crlfDelay: Infinity });
  for await (const raw of lines) {
    options.abortSignal?.throwIfAborted();
    report.lines++;
    const text = raw.trim();
    if (text === '') continue;
    try {
      if (text.includes('\uFFFD')) throw new Error('line is not valid UTF-8');
      const parsed = importLineSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`);
      }
      batch.push(fromLine(ctx, scope === undefined ? parsed.data : { ...parsed.data, scope }));
    } catch (error) {
      report.invalid.push({ line: report.lines, error: (error as Error).message });
      continue;
    }
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return report;
}
