import { afterAll, describe } from 'vitest';
import { runStoreContract } from '../../../test/contracts/store-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresStore } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

async function create(options: { annThreshold?: number } = {}) {
  const schema = pg!.schemaName('contract');
  const store = createPostgresStore({ url: pg!.url, schema, poolSize: 4, ...options });
  return {
    store,
    async cleanup() {
      await store.close();
      await pg!.dropSchema(schema);
    },
  };
}

describe.skipIf(!pg)('postgres store', () => {
  runStoreContract({ name: 'postgres', create, dimensions: 8 });
  // The HNSW index from the first row on (it is built past 20 000 rows by default).
  runStoreContract({ name: 'postgres with HNSW', create: () => create({ annThreshold: 0 }), dimensions: 8 });
  runStoreContract({ name: 'postgres', create, dimensions: 0 });
});
