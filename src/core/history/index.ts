/** The memory history log (who changed what, when, why) and revert. */
export {
  HistoryLog,
  redactHistoryEntry,
  HISTORY_ACTIONS,
  plainRecord,
  summarize,
  type HistoryAction,
  type HistoryActor,
  type HistoryEntry,
  type HistoryEntryInput,
  type HistoryNext,
  type HistoryRelated,
} from './history-log.js';
export { revertLast, type RevertResult } from './revert.js';
export { recordCreate, recordForget, recordUpdate } from './engine-hooks.js';
export { JsonlHistoryStorage } from './jsonl-storage.js';
