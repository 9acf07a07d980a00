/** Layer L0 capture: transcript readers, cursors, cleaning and the daily conversation log. */
export {
  DEFAULT_MAX_BYTES_PER_RUN,
  DEFAULT_SKIP_AGENT_IDS,
  discoverTranscripts,
  ingest,
  type IngestOptions,
  type IngestProgress,
  type IngestSourceSpec,
  type IngestSummary,
} from './ingest.js';
export { capture, normaliseLiveMessage, type CaptureOptions, type CaptureResult } from './live.js';
export { CursorStore, cursorKey, type FileCursor, type FileIdentity, type PendingBatch } from './cursor-store.js';
export { readCompleteLines, lastLineBoundary, type RawLine, type LineChunk, type ReadLinesOptions } from './line-reader.js';
export {
  createCleaner,
  emptyCleanStats,
  mergeCleanStats,
  DEFAULT_INJECTED_TAGS,
  type CleanOptions,
  type CleanResult,
  type CleanStats,
  type Cleaner,
  type DropReason,
  type StripKind,
} from './clean/index.js';
export {
  READERS,
  SOURCE_KINDS,
  claudeCodeReader,
  codexReader,
  jsonlReader,
  openClawReader,
  classifyOpenClawFile,
  claudeConfigDirs,
  codexHomes,
  openClawStateDirs,
  type SourceKind,
} from './readers/index.js';
export { discoverOpenClawSqlite, ingestOpenClawSqlite, type SqliteStore } from './sqlite/openclaw-sqlite.js';
export { detectSource, EXPECTED_LAYOUTS } from './detect.js';
export { resetCursors, showCursors, type CursorInfo } from './admin.js';
export { watch, type WatchOptions, type WatchResult } from './watch.js';
