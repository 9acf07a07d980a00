/** The conversation index, engine side: turn documents, catching up with the L0 log, search. */
export {
  buildTurnDocument,
  conversationDocumentId,
  turnDate,
  type BuildTurnDocument,
  type TurnContext,
  type TurnDocumentText,
} from './document.js';
export {
  ConversationIndexer,
  type CatchUpOptions,
  type CatchUpResult,
  type ConversationIndexerOptions,
  type ConversationIndexStatus,
} from './indexer.js';
export {
  asTurnResult,
  conversationTurnSource,
  RAW_CONVERSATION_ROLES,
  searchConversationIndex,
  type IndexedConversationTurn,
  type SearchConversationsOptions,
} from './search.js';
