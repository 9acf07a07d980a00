import type { L0LogV1 } from '../../spec/l0-log.js';
import type { MemoryStoreV1 } from '../../spec/memory-store.js';
import type { RerankerV1 } from '../../spec/reranker.js';
import type { EmbeddingService } from '../embedding/embedding-service.js';
import type { HistoryLog } from '../history/history-log.js';

/** Write-path settings the engine needs (a slice of the validated config). */
export interface WriteSettings {
  redactSecrets: boolean;
  maxChars: number;
  /** Vector similarity at or above which a new memory is reported as a duplicate. */
  nearDuplicateThreshold: number;
}

/** Everything engine operations share; built once by `Strata.open` (src/strata.ts). */
export interface EngineContext {
  store: MemoryStoreV1;
  embeddings: EmbeddingService;
  embedderId: string;
  dimensions: number;
  reranker?: RerankerV1;
  write: WriteSettings;
  /** Where every change is logged for `strata history` / `strata revert`; absent = not logged. */
  history?: HistoryLog;
  /** The L0 conversation log (distillation reads it). */
  l0: L0LogV1;
  now: () => Date;
}
