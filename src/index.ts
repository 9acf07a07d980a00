/// <reference types="node" preserve="true" />
/**
 * Public API of strata-memory. Every export here is public; named exports only.
 * Hosts with Node-only transports (MCP stdio, HTTP server) are reached through the CLI.
 */
export { Strata, type StrataOpenOptions } from './strata.js';
export {
  createConversationIndexFromConfig,
  createEmbedderFromConfig,
  createL0LogFromConfig,
  createLlmFromConfig,
  createRerankerFromConfig,
  createStoreFromConfig,
} from './wiring/factories.js';
export type { LearnOptions, LearnResult, DeleteAllOptions } from './learn.js';
export { MemoryEngine } from './core/engine/memory-engine.js';
export type {
  RememberInput,
  RememberOptions,
  RememberResult,
  UpdateOptions,
  ListMemoriesOptions,
  EngineStats,
} from './core/engine/types.js';
export type { ImportReport, ExportOptions } from './core/engine/import-export.js';
export type { RecallOptions, RecallResult } from './core/recall/types.js';
export { formatContextBlock } from './core/recall/context-format.js';
export { shouldRecall } from './core/recall/gate.js';
export { DEFAULT_RECALL_CONFIG, type RecallConfig, type RecallConfigInput } from './core/recall/config.js';
export { resolveCaller, describeCaller, type Caller, type ResolveCallerOptions } from './core/caller.js';
export {
  CallerOperations,
  OPERATIONS,
  OP_NAMES,
  describeError,
  errorText,
  httpStatusOf,
  type OpInput,
  type OpName,
  type OpResult,
  type OpLimits,
} from './core/ops/index.js';
export { agentScopes, assertScope, assertScopeSet, isValidScope, parseScope } from './core/scope.js';
export { redactSecrets } from './core/write/redact.js';
export { detectPromptInjection } from './core/write/injection.js';
export type { IngestSummary, CaptureResult } from './capture/index.js';
export type { IndexMode, PipelineCaptureOptions, PipelineIngestOptions, PipelineWatchOptions } from './capture/pipeline.js';
export {
  buildTurnDocument,
  conversationDocumentId,
  type BuildTurnDocument,
  type CatchUpResult,
  type ConversationIndexStatus,
  type TurnContext,
} from './core/conversations/index.js';
export type { BackgroundWorker, JournalFlushRequest, WorkerEvent, WorkerRunReport } from './core/worker/background-worker.js';
export type { HistoryEntry, RevertResult } from './core/history/index.js';
export type { DistillReport } from './core/distill/index.js';
export * from './errors/index.js';
export type * from './spec/index.js';
export { MEMORY_CATEGORIES, SOURCE_KINDS } from './spec/memory-record.js';
