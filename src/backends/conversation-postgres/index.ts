export { createPostgresConversationIndex, type PostgresConversationIndexOptions } from './index-store.js';
export { CONVERSATION_MIGRATIONS } from './ddl.js';
