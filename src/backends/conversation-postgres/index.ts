export { createPostgresConversationIndex, type PostgresConversationIndexOptions } from './index-store.js';
export { CONVERSATION_MIGRATIONS } from './ddl.js';
export { createPostgresConversationIndexFromConfig } from './config.js';
