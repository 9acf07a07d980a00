import { runStoreContract } from '../contracts/store-contract.js';
import { InMemoryMemoryStore } from './memory-store.js';

async function create() {
  const store = new InMemoryMemoryStore();
  return { store, cleanup: async () => store.close() };
}

runStoreContract({ name: 'in-memory (test support)', create, dimensions: 8 });
runStoreContract({ name: 'in-memory (test support)', create, dimensions: 0 });
