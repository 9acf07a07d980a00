/** The token registry the config implies: beside a PostgreSQL store in its database, else in the home. */
import type { StrataConfig } from '../config/index.js';
import { ConfigError } from '../errors/index.js';
import { FileTokenRegistry } from './token-file.js';
import type { TokenRegistry } from './tokens.js';

export async function openTokenRegistry(options: { config: StrataConfig; home: string; env?: NodeJS.ProcessEnv }): Promise<TokenRegistry> {
  const s = options.config.store;
  if (s.provider !== 'postgres') return new FileTokenRegistry({ home: options.home });
  const url = (options.env ?? process.env)[s.postgres.urlEnv];
  if (!url)
    throw new ConfigError({
      field: 'store.postgres.urlEnv',
      message: `store.provider is "postgres" but ${s.postgres.urlEnv} is not set: tokens live in that database.`,
    });
  const { createPostgresTokenRegistry } = await import('../backends/tokens-postgres/index.js');
  return createPostgresTokenRegistry({ url, schema: s.postgres.schema, poolSize: 2 });
}
