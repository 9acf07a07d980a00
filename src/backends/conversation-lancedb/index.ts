export { openLanceConversationIndex, type LanceConversationIndexOptions } from './index-store.js';
