export { shouldRecall, type GateDecision } from './gate.js';
export { cleanQuery, DEFAULT_QUERY_MAX_CHARS, type CleanQueryResult } from './query-cleanup.js';
export {
  DEFAULT_RECALL_CONFIG,
  DEFAULT_FUSION_CONFIG,
  recallConfigSchema,
  fusionMethodSchema,
  resolveRecallConfig,
  type RecallConfig,
  type RecallConfigInput,
  type FusionConfig,
  type FusionMethod,
  type RerankConfig,
  type ScoringConfig,
  type DiversityConfig,
} from './config.js';
export {
  fuse,
  scaleCosine,
  normalizeByMax,
  compareFused,
  type ChannelHit,
  type FusedCandidate,
  type FuseOptions,
  type FuseResult,
} from './fusion.js';
export { rerankCandidates, blendRerankScore, normalizeRerankScores, type RerankCandidate, type RerankOutcome } from './rerank.js';
export {
  applyScoring,
  recencyFactor,
  importanceFactor,
  accessFactor,
  lengthFactor,
  formFactor,
  dateFactor,
  isQuestion,
  type ScoringFactors,
} from './scoring.js';
export { parseQueryTime, dateMatch, type QueryTimeRange } from './dates.js';
export { contentTerms, termCoverage } from './terms.js';
export {
  buildTurnIndexText,
  buildSessionIndexTexts,
  spokenDate,
  type TurnForIndex,
  type TurnIndexTextOptions,
} from './conversation/turn-text.js';
export {
  searchConversationTurns,
  type IndexedTurn,
  type TurnHit,
  type TurnSearchSource,
  type ConversationTurnResult,
} from './conversation/search.js';
export {
  conversationFallback,
  memoriesAnswer,
  formatConversationExcerpts,
  toConversationExcerpt,
  type ConversationExcerpt,
  type ConversationFallbackOptions,
  type ScoredResults,
} from './conversation/fallback.js';
export { demoteNearDuplicates, cosineSimilarity, jaccard, type DiversityItem, type Demotion } from './diversity.js';
export { embedWithTimeout, retrieveCandidates, type EmbedQuery } from './retrieve.js';
export { createRecallPipeline, type RecallPipeline, type RecallPipelineOptions } from './pipeline.js';
export { estimateTokens, tokenize, containsCjk } from './tokens.js';
export {
  formatContextBlock,
  formatMemoryLine,
  escapeMemoryText,
  CONTEXT_BLOCK_HEADER,
  type FormatContextOptions,
} from './context-format.js';
export type * from './types.js';
