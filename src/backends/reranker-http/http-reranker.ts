import { ConfigError, InvalidArgumentError, ProviderCallError } from '../../errors/index.js';
import { loadApiKey, postJson, validateBaseURL } from '../../provider-utils/index.js';
import type { RerankerV1 } from '../../spec/index.js';
import { PROVIDERS, type RerankProvider } from './providers.js';

/**
 * Cross-encoder reranking over HTTP, one attempt per call. Failures surface as ProviderCallError
 * (TIMEOUT on the time limit, retry-after in its details); the recall pipeline falls back to fused
 * order, so the default favours a quick answer: a 5 s limit.
 */
export interface HttpRerankerSettings {
  provider: RerankProvider;
  /** API root, e.g. `https://api.jina.ai/v1` or `http://localhost:8080` (TEI). Required for tei and generic. */
  baseURL?: string;
  model?: string;
  apiKey?: string;
  /** Env var with the key; defaults per provider (JINA_API_KEY, COHERE_API_KEY, VOYAGE_API_KEY, SILICONFLOW_API_KEY). */
  apiKeyEnv?: string;
  /** Default 5000 ms. */
  timeoutMs?: number;
  /** Overrides the provider's documents-per-call limit. */
  maxDocuments?: number;
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
  /** Where `apiKeyEnv` is read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export function createHttpReranker(settings: HttpRerankerSettings): RerankerV1 {
  const shape = PROVIDERS[settings.provider];
  if (!shape) {
    throw new ConfigError({
      field: 'provider',
      message: `Unknown rerank provider ${JSON.stringify(settings.provider)}; use one of ${Object.keys(PROVIDERS).join(', ')}.`,
    });
  }
  const description = `${settings.provider} reranker`;
  const rawBaseURL = settings.baseURL ?? shape.defaultBaseURL;
  if (rawBaseURL === undefined) {
    throw new ConfigError({ field: 'baseURL', message: `The ${settings.provider} reranker needs baseURL, e.g. http://localhost:8080.` });
  }
  const url = validateBaseURL({ url: rawBaseURL, description }) + shape.path;
  const model = settings.model ?? shape.defaultModel;
  if (model === undefined && settings.provider === 'generic') {
    // Cohere-shaped servers generally require a model; fail at construction rather than per call.
    throw new ConfigError({ field: 'model', message: 'The generic reranker needs model, e.g. BAAI/bge-reranker-v2-m3.' });
  }
  const apiKeyEnv = settings.apiKeyEnv ?? shape.defaultApiKeyEnv;
  const maxDocuments = settings.maxDocuments ?? shape.maxDocuments;
  const authHint = apiKeyEnv
    ? `Check the ${apiKeyEnv} environment variable (or the apiKey setting).`
    : 'This server wants an API key: set apiKeyEnv in the rerank settings.';

  function headers(): Record<string, string> {
    // Hosted providers need a key; self-hosted ones (tei, generic) only when apiKeyEnv is named.
    const needsKey = settings.apiKey !== undefined || apiKeyEnv !== undefined;
    const key = needsKey
      ? loadApiKey({ apiKey: settings.apiKey, envVar: apiKeyEnv ?? 'RERANK_API_KEY', description, env: settings.env })
      : undefined;
    return { ...settings.headers, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  }

  return {
    specificationVersion: 'v1',
    id: `${settings.provider}:${model ?? 'default'}`,
    maxDocuments,
    async doRerank({ query, documents, topN, abortSignal }) {
      if (documents.length > maxDocuments) {
        throw new InvalidArgumentError({
          argument: 'documents',
          message: `${documents.length} documents exceed the ${description}'s limit of ${maxDocuments} per call.`,
        });
      }
      if (topN !== undefined && (!Number.isInteger(topN) || topN < 1)) {
        throw new InvalidArgumentError({ argument: 'topN', message: `topN must be a positive whole number, got ${topN}.` });
      }
      abortSignal?.throwIfAborted();
      if (documents.length === 0) return { results: [] };
      const body = shape.body({ model, query, documents, topN });
      const { value } = await postJson({
        url,
        headers: headers(),
        body,
        schema: shape.schema,
        timeoutMs: settings.timeoutMs ?? 5000,
        abortSignal,
        fetch: settings.fetch,
        description,
        authHint,
      });
      const seen = new Set<number>();
      for (const r of value) {
        if (r.index < 0 || r.index >= documents.length || seen.has(r.index) || !Number.isFinite(r.score)) {
          throw new ProviderCallError({
            url,
            isRetryable: false,
            message: `${description} returned an invalid result (index ${r.index}, score ${r.score}) for ${documents.length} documents.`,
          });
        }
        seen.add(r.index);
      }
      // TEI has no top_n parameter: apply it here so every provider honours it.
      const sorted = [...value].sort((a, b) => b.score - a.score);
      return { results: topN === undefined ? sorted : sorted.slice(0, topN) };
    },
  };
}
