import { afterAll, describe } from 'vitest';
import { runJournalStoreContract } from '../../../test/contracts/journal-store-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresJournalStore } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres journal store', () => {
  runJournalStoreContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('jrn');
      const store = createPostgresJournalStore({ url: pg!.url, schema, poolSize: 4 });
      let handles = 0;
      return {
        store,
        // A pool of its own: another process, in effect.
        open: async () => createPostgresJournalStore({ url: `${pg!.url}&application_name=strata_jrn_${++handles}`, schema, poolSize: 2 }),
        async cleanup() {
          await store.close();
          await pg!.dropSchema(schema);
        },
      };
    },
  });
});
