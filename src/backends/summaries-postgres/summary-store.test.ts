import { afterAll, describe } from 'vitest';
import { runSummaryStoreContract } from '../../../test/contracts/summary-store-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresSummaryStore } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres summary store', () => {
  runSummaryStoreContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('sum');
      const store = createPostgresSummaryStore({ url: pg!.url, schema, poolSize: 4 });
      let handles = 0;
      return {
        store,
        // A pool of its own: another process, in effect.
        open: async () => createPostgresSummaryStore({ url: `${pg!.url}&application_name=strata_sum_${++handles}`, schema, poolSize: 2 }),
        async cleanup() {
          await store.close();
          await pg!.dropSchema(schema);
        },
      };
    },
  });
});
