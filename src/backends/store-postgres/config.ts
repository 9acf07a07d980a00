import { z } from 'zod';
import { ConfigError } from '../../errors/index.js';
import type { MemoryStoreV1 } from '../../spec/index.js';

/**
 * The `store.postgres` section of config.json. The connection URL (it carries the password) is
 * never in the file: `urlEnv` names the environment variable that holds it.
 *
 *   "store": { "provider": "postgres", "postgres": { "urlEnv": "STRATA_POSTGRES_URL", "schema": "strata" } }
 */
export const DEFAULT_POSTGRES_URL_ENV = 'STRATA_POSTGRES_URL';

export const postgresSectionSchema = z.strictObject({
  /** Environment variable holding the connection URL (postgresql://user:pass@host:5432/db). */
  urlEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the NAME of an environment variable holding the URL, not the URL')
    .default(DEFAULT_POSTGRES_URL_ENV),
  /** Schema for Strata's tables (several Strata deployments can share one database). */
  schema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case SQL identifier such as strata')
    .default('strata'),
  /** PostgreSQL text-search configuration: a Snowball language (english, german, ...), simple, or schema.config. */
  textSearch: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/)
    .default('english'),
  /** Connections this process opens (shared by every Strata component on the database). */
  poolSize: z.number().int().min(2).max(200).default(10),
  /** How long a writer waits for another process's write lock. */
  lockTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
});
export type PostgresSection = z.infer<typeof postgresSectionSchema>;

/**
 * Factory for `store.provider: "postgres"` (dynamically imported by the store factory, so LanceDB
 * users never load `pg`). `efSearch` and `annThreshold` are the store-wide settings shared with
 * LanceDB (`store.efSearch`, `store.annThreshold`).
 */
export async function createPostgresStoreFromConfig(options: {
  section: PostgresSection;
  env?: NodeJS.ProcessEnv;
  efSearch?: number;
  annThreshold?: number;
}): Promise<MemoryStoreV1> {
  const { section } = options;
  const url = (options.env ?? process.env)[section.urlEnv];
  if (!url) {
    throw new ConfigError({
      field: 'store.postgres.urlEnv',
      message: `store.provider is "postgres" but ${section.urlEnv} is not set: export ${section.urlEnv}=postgresql://user:password@host:5432/database (the URL stays out of config.json).`,
    });
  }
  const { createPostgresStore } = await import('./index.js');
  return createPostgresStore({
    url,
    schema: section.schema,
    textSearch: section.textSearch,
    poolSize: section.poolSize,
    lockTimeoutMs: section.lockTimeoutMs,
    efSearch: options.efSearch,
    annThreshold: options.annThreshold,
  });
}
