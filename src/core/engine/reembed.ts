import type { EngineContext } from './context.js';
import type { ProgressEvent } from './types.js';

export interface ReembedReport {
  rows: number;
  embedderId: string;
  dimensions: number;
}

/**
 * Rebuilds every row with the configured embedder into a new table and swaps it in atomically:
 * readers keep using the old table until the commit, and a failure leaves it untouched.
 */
export async function reembedAll(
  ctx: EngineContext,
  options: { onProgress?: (e: ProgressEvent) => void; abortSignal?: AbortSignal; batchSize?: number },
): Promise<ReembedReport> {
  return ctx.store.withWriteLock(async () => {
    const total = (await ctx.store.stats()).rows;
    const rebuild = await ctx.store.beginRebuild({ embedderId: ctx.embedderId, dimensions: ctx.dimensions });
    let rows = 0;
    try {
      for await (const batch of ctx.store.scan({ scopes: null, batchSize: options.batchSize ?? 256 })) {
        options.abortSignal?.throwIfAborted();
        const vectors =
          ctx.dimensions > 0
            ? await ctx.embeddings.embedDocuments({ texts: batch.map((r) => r.text), abortSignal: options.abortSignal })
            : batch.map(() => null);
        await rebuild.insert({
          records: batch.map((r, i) => ({
            ...r,
            vector: vectors?.[i] ?? null,
            embeddingModel: ctx.dimensions > 0 ? ctx.embedderId : 'none',
          })),
        });
        rows += batch.length;
        options.onProgress?.({ done: rows, total });
      }
      await rebuild.commit();
    } catch (error) {
      await rebuild.abort().catch(() => undefined);
      throw error;
    }
    return { rows, embedderId: ctx.embedderId, dimensions: ctx.dimensions };
  });
}
