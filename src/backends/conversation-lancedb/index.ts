export { createLanceConversationIndex, type LanceConversationIndexOptions } from './index-store.js';
