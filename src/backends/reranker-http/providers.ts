import { z } from 'zod';

/**
 * Wire shapes of the rerank APIs Strata speaks. Jina, Cohere (v2), SiliconFlow and most
 * self-hosted servers share one shape; Voyage names its fields differently; TEI has its own.
 */
export type RerankProvider = 'jina' | 'cohere' | 'voyage' | 'tei' | 'siliconflow' | 'generic';

export interface RerankRequest {
  model: string | undefined;
  query: string;
  documents: string[];
  topN: number | undefined;
}

export interface ProviderShape {
  defaultBaseURL: string | undefined;
  defaultModel: string | undefined;
  defaultApiKeyEnv: string | undefined;
  /** Appended to the base URL. */
  path: string;
  maxDocuments: number;
  body(request: RerankRequest): Record<string, unknown>;
  schema: z.ZodType<Array<{ index: number; score: number }>>;
}

const resultsShape = z
  .object({ results: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })) })
  .transform((v) => v.results.map((r) => ({ index: r.index, score: r.relevance_score })));

function common(request: RerankRequest): Record<string, unknown> {
  return {
    ...(request.model !== undefined ? { model: request.model } : {}),
    query: request.query,
    documents: request.documents,
    ...(request.topN !== undefined ? { top_n: request.topN } : {}),
  };
}

const withoutDocuments = (request: RerankRequest) => ({ ...common(request), return_documents: false });

export const PROVIDERS: Record<RerankProvider, ProviderShape> = {
  jina: {
    defaultBaseURL: 'https://api.jina.ai/v1',
    defaultModel: 'jina-reranker-v3',
    defaultApiKeyEnv: 'JINA_API_KEY',
    path: '/rerank',
    maxDocuments: 1024,
    body: withoutDocuments,
    schema: resultsShape,
  },
  cohere: {
    defaultBaseURL: 'https://api.cohere.com/v2',
    defaultModel: 'rerank-v3.5',
    defaultApiKeyEnv: 'COHERE_API_KEY',
    path: '/rerank',
    maxDocuments: 1000,
    body: common,
    schema: resultsShape,
  },
  siliconflow: {
    defaultBaseURL: 'https://api.siliconflow.cn/v1',
    defaultModel: 'BAAI/bge-reranker-v2-m3',
    defaultApiKeyEnv: 'SILICONFLOW_API_KEY',
    path: '/rerank',
    maxDocuments: 1000,
    body: withoutDocuments,
    schema: resultsShape,
  },
  voyage: {
    defaultBaseURL: 'https://api.voyageai.com/v1',
    defaultModel: 'rerank-2.5',
    defaultApiKeyEnv: 'VOYAGE_API_KEY',
    path: '/rerank',
    maxDocuments: 1000,
    body: (r) => ({
      query: r.query,
      documents: r.documents,
      ...(r.model !== undefined ? { model: r.model } : {}),
      ...(r.topN !== undefined ? { top_k: r.topN } : {}),
    }),
    schema: z
      .object({ data: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })) })
      .transform((v) => v.data.map((r) => ({ index: r.index, score: r.relevance_score }))),
  },
  tei: {
    defaultBaseURL: undefined,
    defaultModel: undefined,
    defaultApiKeyEnv: undefined,
    path: '/rerank',
    // TEI's default --max-client-batch-size.
    maxDocuments: 32,
    // TEI has no top_n; `raw_scores: false` asks for sigmoid scores in 0..1 like the others.
    body: (r) => ({ query: r.query, texts: r.documents, raw_scores: false }),
    schema: z
      .array(z.object({ index: z.number().int(), score: z.number() }))
      .transform((v) => v.map((r) => ({ index: r.index, score: r.score }))),
  },
  generic: {
    defaultBaseURL: undefined,
    defaultModel: undefined,
    defaultApiKeyEnv: undefined,
    path: '/rerank',
    maxDocuments: 1000,
    body: common,
    schema: resultsShape,
  },
};
