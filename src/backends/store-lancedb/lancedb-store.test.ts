import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreContract } from '../../../test/contracts/store-contract.js';
import { createLanceDbStore } from './index.js';

async function create() {
  const dir = await mkdtemp(join(tmpdir(), 'strata-lancedb-'));
  const store = createLanceDbStore({ path: join(dir, 'store') });
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

runStoreContract({ name: 'lancedb', create, dimensions: 8 });
runStoreContract({ name: 'lancedb', create, dimensions: 0 });
