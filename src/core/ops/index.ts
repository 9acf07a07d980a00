/** The operations layer: every operation defined once, run through a caller-scoped view. */
export { OPERATIONS, OP_NAMES, isOpName, toolOperations, type OpInput, type OpName, type OpResult, type Operations } from './table.js';
export {
  CallerOperations,
  OperationShapes,
  createCallerOperations,
  operationJsonSchema,
  resultForModel,
  resultText,
  type OperationsRunner,
  type OperationsView,
  type RunOptions,
} from './view.js';
export { defineOperation, type AccessKind, type Operation, type OpContext, type OpsDeps, type OpsEngine } from './operation.js';
export { limitsOf, DEFAULT_OPS_CONFIG, type OpLimits, type OpsConfig } from './limits.js';
export { describeError, errorText, httpStatusOf, invalidInput, isUsageError, type ErrorInfo } from './errors.js';
export { compactHit, compactRecord, formatScore, type CompactMemory } from './present.js';
export type { StatsResult } from './info-ops.js';
export type { ForgetResult } from './memory-ops.js';
export type { Provenance } from './history-ops.js';
export type { ConversationSearchResult } from './session-ops.js';
export type { ImportOpResult, OverviewResult, SessionResult, SessionsResult } from './browse-ops.js';
