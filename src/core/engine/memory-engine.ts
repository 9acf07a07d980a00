import type { MemoryCategory, MemoryRecord } from '../../spec/memory-record.js';
import type { MemoryFilter } from '../../spec/memory-store.js';
import { InvalidArgumentError, NotFoundError, StorageError } from '../../errors/index.js';
import { assertScope, assertScopeSet } from '../scope.js';
import { contentHash, normalizeText, validateMemoryText } from '../write/normalize.js';
import { redactSecrets } from '../write/redact.js';
import { redactingStore } from '../write/redacting-store.js';
import { isAutoInjectable } from '../write/injection.js';
import { redactMemoryRecord } from '../write/redact-record.js';
import { createRecallPipeline, type RecallPipeline } from '../recall/pipeline.js';
import type { RecallOptions, RecallResult } from '../recall/types.js';
import { shouldRecall } from '../recall/gate.js';
import { formatContextBlock } from '../recall/context-format.js';
import type { RecallConfig } from '../recall/config.js';
import { AccessTracker } from './access-tracker.js';
import { recordForget, recordUpdate } from '../history/engine-hooks.js';
import type { EngineContext } from './context.js';
import { exportRecords, importRecords, type ExportOptions, type ImportOptions, type ImportReport } from './import-export.js';
import { reembedAll, type ReembedReport } from './reembed.js';
import type {
  EngineStats,
  ListMemoriesOptions,
  ProgressEvent,
  RememberInput,
  RememberOptions,
  RememberResult,
  UpdateOptions,
} from './types.js';
import { remember, rememberMany } from './write-path.js';

/**
 * The memory engine: every host (library, CLI, MCP, HTTP, plugins) goes through these methods.
 * It knows only the spec interfaces; `Strata.open` (src/strata.ts) wires concrete backends in.
 */
export class MemoryEngine {
  protected readonly ctx: EngineContext;
  private readonly pipeline: RecallPipeline;
  private readonly access: AccessTracker;
  private closed = false;

  constructor(ctx: EngineContext, recallConfig?: Partial<RecallConfig>) {
    // Every memory write, whichever path makes it, is redacted at the store boundary.
    this.ctx = ctx.write.redactSecrets ? { ...ctx, store: redactingStore(ctx.store) } : ctx;
    this.pipeline = createRecallPipeline({
      store: ctx.store,
      embedQuery: (o) => ctx.embeddings.embedQuery(o),
      reranker: ctx.reranker,
      config: recallConfig,
    });
    this.access = new AccessTracker(ctx.store);
  }

  get embedderId(): string {
    return this.ctx.embedderId;
  }

  /** Stores one memory; exact and near duplicates come back as `{action: 'duplicate', id}`. */
  remember(options: RememberOptions): Promise<RememberResult> {
    return remember(this.ctx, options);
  }

  /** Stores many memories with one embedding pass and one batched write. */
  rememberMany(options: {
    items: RememberInput[];
    nearDuplicates?: boolean;
    abortSignal?: AbortSignal;
    actor?: string;
  }): Promise<RememberResult[]> {
    return rememberMany(this.ctx, options);
  }

  async recall(options: RecallOptions): Promise<RecallResult> {
    const result = await this.pipeline.recall(options);
    this.access.record(
      result.results.map((r) => r.record.id),
      this.ctx.now(),
    );
    return result;
  }

  /**
   * Automatic recall for hosts: applies the adaptive gate, then formats the injected block.
   * Returns an empty block (and the gate's reason) when recall is skipped.
   */
  async autoRecall(
    options: RecallOptions & { maxTokens?: number },
  ): Promise<{ recalled: boolean; reason: string; block: string; result?: RecallResult }> {
    const gate = shouldRecall({ text: options.query });
    if (!gate.recall) return { recalled: false, reason: gate.reason, block: '' };
    const recalled = await this.recall(options);
    // Flagged memories are never injected automatically (still recallable on explicit request).
    const result = { ...recalled, results: recalled.results.filter((r) => isAutoInjectable(r.record)) };
    const block = formatContextBlock({ results: result.results, maxTokens: options.maxTokens ?? 800, now: this.ctx.now() });
    return { recalled: true, reason: gate.reason, block, result };
  }

  /** Fetches memories by id; with `scopes`, ids outside them are treated as missing. */
  async get(options: { ids: string[]; scopes?: string[] }): Promise<MemoryRecord[]> {
    const scopes = options.scopes ? new Set(assertScopeSet(options.scopes)) : null;
    const rows = await this.ctx.store.get({ ids: options.ids });
    return rows.filter((r) => !scopes || scopes.has(r.scope)).map(({ vector: _v, ...r }) => r);
  }

  async getOne(options: { id: string; scopes?: string[] }): Promise<MemoryRecord> {
    const [record] = await this.get({ ids: [options.id], scopes: options.scopes });
    if (!record) throw new NotFoundError({ what: 'memory', id: options.id });
    return record;
  }

  async update(options: UpdateOptions): Promise<MemoryRecord> {
    if (options.text !== undefined) validateMemoryText(options.text, { maxChars: this.ctx.write.maxChars });
    if (options.scope !== undefined) assertScope(options.scope);
    for (const key of ['importance', 'confidence'] as const) {
      const v = options[key];
      if (v !== undefined && (!Number.isFinite(v) || v < 0 || v > 1)) {
        throw new InvalidArgumentError({ argument: key, message: `${key} must be a number between 0 and 1.` });
      }
    }
    let text: string | undefined;
    let vector: number[] | null | undefined;
    if (options.text !== undefined) {
      text = normalizeText(options.text);
      if (this.ctx.write.redactSecrets) text = redactSecrets(text).text;
      if (this.ctx.dimensions > 0)
        vector = (await this.ctx.embeddings.embedDocuments({ texts: [text], abortSignal: options.abortSignal }))?.[0] ?? null;
    }
    return this.ctx.store.withWriteLock(async () => {
      const [row] = await this.ctx.store.get({ ids: [options.id], withVectors: true });
      if (!row || (options.scopes && !assertScopeSet(options.scopes).includes(row.scope))) {
        throw new NotFoundError({ what: 'memory', id: options.id });
      }
      const merged = {
        ...row,
        ...(text !== undefined ? { text, contentHash: contentHash(text), vector: vector ?? row.vector } : {}),
        ...(options.category !== undefined ? { category: options.category } : {}),
        ...(options.importance !== undefined ? { importance: options.importance } : {}),
        ...(options.confidence !== undefined ? { confidence: options.confidence } : {}),
        ...(options.tags !== undefined ? { tags: [...new Set(options.tags)] } : {}),
        ...(options.scope !== undefined ? { scope: options.scope } : {}),
        ...(options.validTo !== undefined ? { validTo: options.validTo } : {}),
        updatedAt: this.ctx.now().toISOString(),
      };
      const next = this.ctx.write.redactSecrets ? redactMemoryRecord(merged) : merged;
      await this.ctx.store.update({ records: [next] });
      const { vector: _v, ...record } = next;
      if (this.ctx.history)
        await recordUpdate({
          history: this.ctx.history,
          actor: options.actor ?? 'api',
          previous: row,
          next: record,
          reason: options.reason,
        });
      return record;
    });
  }

  /**
   * Forgets by id, or by query. A query only previews matches unless `confirm` is true, so a
   * vague query can never silently delete.
   */
  async forget(options: {
    ids?: string[];
    query?: string;
    scopes?: string[];
    limit?: number;
    confirm?: boolean;
    actor?: string;
  }): Promise<{ deleted: number; matches: MemoryRecord[] }> {
    if (options.ids && options.ids.length > 0) {
      const matches = await this.get({ ids: options.ids, scopes: options.scopes });
      const deleted = matches.length === 0 ? 0 : await this.deleteLogged(matches, options.actor);
      return { deleted, matches };
    }
    if (!options.query) throw new InvalidArgumentError({ argument: 'ids', message: 'forget needs ids or a query.' });
    const scopes = assertScopeSet(options.scopes);
    const found = await this.pipeline.recall({ query: options.query, scopes, limit: options.limit ?? 5 });
    const matches = found.results.map((r) => r.record);
    if (!options.confirm || matches.length === 0) return { deleted: 0, matches };
    const deleted = await this.deleteLogged(matches, options.actor);
    return { deleted, matches };
  }

  private async deleteLogged(matches: MemoryRecord[], actor = 'api'): Promise<number> {
    const deleted = await this.ctx.store.withWriteLock(() => this.ctx.store.delete({ ids: matches.map((m) => m.id) }));
    if (this.ctx.history) await recordForget({ history: this.ctx.history, actor, records: matches });
    return deleted;
  }

  async list(options: ListMemoriesOptions): Promise<MemoryRecord[]> {
    const filter: MemoryFilter = {
      scopes: assertScopeSet(options.scopes),
      categories: options.categories,
      tags: options.tags,
      includeHistory: options.includeHistory,
    };
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new InvalidArgumentError({ argument: 'limit', message: 'limit must be an integer between 1 and 10000.' });
    }
    return this.ctx.store.list({ filter, limit, offset: options.offset ?? 0, order: options.order });
  }

  async count(options: { scopes: string[]; includeHistory?: boolean; categories?: MemoryCategory[]; tags?: string[] }): Promise<number> {
    const { categories, tags } = options;
    return this.ctx.store.count({
      filter: {
        scopes: assertScopeSet(options.scopes),
        includeHistory: options.includeHistory,
        ...(categories?.length ? { categories } : {}),
        ...(tags?.length ? { tags } : {}),
      },
    });
  }

  /**
   * Store statistics. With `scopes`, every count covers only the current memories of those scopes
   * (each given scope listed, zero included): what a scoped caller may see. Without, the whole
   * store including superseded versions (admin view).
   */
  async stats(options: { scopes?: string[] } = {}): Promise<EngineStats> {
    const scopes = options.scopes === undefined ? undefined : assertScopeSet(options.scopes);
    const stats = await this.ctx.store.stats(scopes ? { filter: { scopes } } : undefined);
    if (scopes) stats.byScope = Object.fromEntries(scopes.map((s) => [s, stats.byScope[s] ?? 0]));
    return {
      ...stats,
      embedder: { id: this.ctx.embedderId, dimensions: this.ctx.dimensions },
      store: { provider: this.ctx.store.provider },
      queryCache: this.ctx.embeddings.stats(),
    };
  }

  export(options: ExportOptions = {}): AsyncGenerator<string> {
    return exportRecords(this.ctx, options);
  }

  /** Imports JSONL, then compacts the store so queries stay fast after a bulk load. */
  async import(options: ImportOptions): Promise<ImportReport> {
    const report = await importRecords(this.ctx, options);
    if (report.imported > 0 && !options.dryRun) await this.ctx.store.optimize();
    return report;
  }

  reembed(options: { onProgress?: (e: ProgressEvent) => void; abortSignal?: AbortSignal } = {}): Promise<ReembedReport> {
    return reembedAll(this.ctx, options);
  }

  optimize(options: { force?: boolean } = {}) {
    return this.ctx.store.optimize(options);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.access.flush();
    await this.ctx.store.close();
    await this.ctx.embeddings.embedder.close?.();
  }

  /** Throws if the store was written with a different embedder (run `strata reembed`). */
  static async checkEmbedder(ctx: EngineContext): Promise<void> {
    const meta = await ctx.store.getMeta();
    if (meta && (meta.embedderId !== ctx.embedderId || meta.dimensions !== ctx.dimensions)) {
      throw new StorageError({
        code: 'EMBEDDER_MISMATCH',
        message:
          `This store was built with embedder ${meta.embedderId} (${meta.dimensions}-d) but the configuration uses ` +
          `${ctx.embedderId} (${ctx.dimensions}-d). Run \`strata reembed\` to rebuild it with the new embedder, or set the ` +
          `embedder back to ${meta.embedderId}.`,
        details: { recorded: meta.embedderId, configured: ctx.embedderId },
      });
    }
  }
}
