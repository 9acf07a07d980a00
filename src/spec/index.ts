export * from './memory-record.js';
export type * from './embedder.js';
export type * from './reranker.js';
export type * from './memory-store.js';
export type * from './llm.js';
export * from './conversation.js';
export type * from './l0-log.js';
export * from './conversation-index.js';
export * from './history-log.js';
