import { runConversationIndexContract } from '../contracts/conversation-index-contract.js';
import { MemoryConversationIndex, memoryConversationStorage } from './memory-conversation-index.js';

async function create() {
  const storage = memoryConversationStorage();
  return {
    index: new MemoryConversationIndex(storage),
    open: async () => new MemoryConversationIndex(storage),
    cleanup: async () => undefined,
  };
}

runConversationIndexContract({ name: 'in-memory (test support)', create, dimensions: 8 });
runConversationIndexContract({ name: 'in-memory (test support)', create, dimensions: 0 });
