import { afterAll, describe } from 'vitest';
import { runLayerStoreContract } from '../../../test/contracts/layer-store-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresLayerStore } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres layer store', () => {
  runLayerStoreContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('lay');
      const store = createPostgresLayerStore({ url: pg!.url, schema, poolSize: 4 });
      let handles = 0;
      return {
        store,
        // A pool of its own: another process, in effect.
        open: async () => createPostgresLayerStore({ url: `${pg!.url}&application_name=strata_lay_${++handles}`, schema, poolSize: 2 }),
        async cleanup() {
          await store.close();
          await pg!.dropSchema(schema);
        },
      };
    },
  });
});
