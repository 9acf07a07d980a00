export { createHttpReranker, type HttpRerankerSettings } from './http-reranker.js';
export { PROVIDERS as RERANK_PROVIDERS, type RerankProvider } from './providers.js';
