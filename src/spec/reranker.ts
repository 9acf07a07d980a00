/** Cross-encoder reranker specification, version 1. */
export interface RerankerV1 {
  readonly specificationVersion: 'v1';
  readonly id: string;
  /** Largest number of documents one call accepts. */
  readonly maxDocuments: number;

  /** Returns a relevance score per document index; documents the provider omits are absent. */
  doRerank(options: {
    query: string;
    documents: string[];
    topN?: number;
    abortSignal?: AbortSignal;
  }): Promise<{ results: Array<{ index: number; score: number }> }>;
}
