import { afterAll, describe } from 'vitest';
import { runUsageLogContract } from '../../../test/contracts/usage-log-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresUsageLog } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres usage log', () => {
  runUsageLogContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('usage');
      const log = createPostgresUsageLog({ url: pg!.url, schema, poolSize: 4 });
      let handles = 0;
      return {
        log,
        // A pool of its own: another process, in effect.
        open: async () => createPostgresUsageLog({ url: `${pg!.url}&application_name=strata_usage_${++handles}`, schema, poolSize: 2 }),
        async cleanup() {
          await log.close();
          await pg!.dropSchema(schema);
        },
      };
    },
  });
});
