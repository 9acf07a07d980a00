import { ConfigError } from '../../errors/index.js';
import type { ConversationIndexV2 } from '../../spec/conversation-index.js';
import { postgresSectionSchema, type PostgresSection } from '../store-postgres/config.js';

/**
 * Factory for `conversations.provider: "postgres"`, dynamically imported by the conversation
 * index factory. `section` is `conversations.postgres`, else the store's `store.postgres` (same
 * URL: the processes' components then share one pool), else the defaults. The lock wait is the
 * spec's (120 s) unless a caller passes its own; `lockTimeoutMs` of the section is the store's.
 */
export async function createPostgresConversationIndexFromConfig(options: {
  section?: PostgresSection;
  env?: NodeJS.ProcessEnv;
  /** The config field named in errors. */
  field?: string;
  /** Identifies this machine's L0 log (its watermark in the shared index). */
  watermarkKey?: string;
}): Promise<ConversationIndexV2> {
  const section = options.section ?? postgresSectionSchema.parse({});
  const url = (options.env ?? process.env)[section.urlEnv];
  if (!url) {
    throw new ConfigError({
      field: options.field ?? 'conversations.postgres.urlEnv',
      message: `conversations.provider is "postgres" but ${section.urlEnv} is not set: export ${section.urlEnv}=postgresql://user:password@host:5432/database (the URL stays out of config.json).`,
    });
  }
  const { createPostgresConversationIndex } = await import('./index-store.js');
  return createPostgresConversationIndex({
    url,
    schema: section.schema,
    textSearch: section.textSearch,
    poolSize: section.poolSize,
    watermarkKey: options.watermarkKey,
  });
}
