import type { MemoryStoreV1 } from '../../spec/index.js';
import { PostgresStore, type PostgresStoreOptions } from './store.js';

export type { PostgresStoreOptions } from './store.js';
export { acquirePool, inTransaction, type PoolLease, type PoolOptions } from './pool.js';
export { migrate, type Migration } from './migrate.js';
export { createPostgresStoreFromConfig, postgresSectionSchema, DEFAULT_POSTGRES_URL_ENV, type PostgresSection } from './config.js';

/** A MemoryStoreV1 on PostgreSQL + pgvector (see store.ts for the design). */
export function createPostgresStore(options: PostgresStoreOptions): MemoryStoreV1 & { readonly schema: string } {
  return new PostgresStore(options);
}
