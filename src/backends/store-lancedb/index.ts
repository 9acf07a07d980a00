import type { MemoryStoreV1 } from '../../spec/index.js';
import { LanceDbStore, type LanceDbStoreOptions } from './store.js';

export type { LanceDbStoreOptions } from './store.js';

/** A MemoryStoreV1 backed by an embedded LanceDB folder (see store.ts for the design). */
export function createLanceDbStore(options: LanceDbStoreOptions): MemoryStoreV1 {
  return new LanceDbStore(options);
}
