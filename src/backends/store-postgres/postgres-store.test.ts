import { afterAll, describe } from 'vitest';
import { runStoreContract } from '../../../test/contracts/store-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresStore } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

async function create() {
  const schema = pg!.schemaName('contract');
  const store = createPostgresStore({ url: pg!.url, schema, poolSize: 4 });
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
  runStoreContract({ name: 'postgres', create, dimensions: 0 });
});
