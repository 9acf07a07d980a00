export { DEFAULT_SUMMARY_OPTIONS, resolveSummaryOptions, type SummaryOptions } from './options.js';
export { runSummaries, type RunSummariesOptions, type SessionSummaryReport, type SummaryRunReport, type SummaryStopReason } from './run.js';
export { createSummaryWorker, type SummaryWorker, type SummaryWorkerOptions } from './worker.js';
export {
  formatSessionSummaries,
  readSessionSummaries,
  type ReadSessionSummariesOptions,
  type ReadSessionSummariesResult,
  type SessionSummary,
} from './read.js';
export { coverage, loadIndex, type SummaryEntry, type SummaryIndex } from './index-file.js';
export { nextChunk, type ChunkDecision } from './plan.js';
export { sessionSlug, summaryPaths, type SummaryPaths } from './paths.js';
