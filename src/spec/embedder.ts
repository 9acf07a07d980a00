/**
 * Embedder specification, version 1. A plain type with capabilities declared as data; the core
 * (not the adapter) splits batches by `maxBatchSize`, caches queries and applies retries.
 */
export type EmbedKind = 'query' | 'document';

export interface EmbedderV1 {
  readonly specificationVersion: 'v1';
  /** Stable identity recorded in the store, e.g. `local:use-lite` or `openai:text-embedding-3-small`. */
  readonly id: string;
  /** Vector length; 0 means the embedder produces no vectors (lexical only). */
  readonly dimensions: number;
  /** Largest number of texts one `doEmbed` call accepts. */
  readonly maxBatchSize: number;
  /** Whether several `doEmbed` calls may run at once. */
  readonly supportsParallelCalls: boolean;
  /** Whether `kind` changes the output (task hints such as query/passage). */
  readonly distinguishesQueries: boolean;
  /** Remote embedders can be probed by `strata doctor`; local ones report their load state. */
  readonly isRemote: boolean;

  doEmbed(options: { texts: string[]; kind: EmbedKind; abortSignal?: AbortSignal }): Promise<{ embeddings: number[][] }>;
  /** Release models or sockets. */
  close?(): Promise<void>;
}
