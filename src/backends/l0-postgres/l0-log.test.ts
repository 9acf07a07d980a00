import { afterAll, describe } from 'vitest';
import { runL0LogContract } from '../../../test/contracts/l0-log-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresL0Log } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres L0 log', () => {
  runL0LogContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('l0');
      const log = createPostgresL0Log({ url: pg!.url, schema, poolSize: 4 });
      let handles = 0;
      return {
        log,
        // A pool of its own: another process, in effect.
        open: async () => createPostgresL0Log({ url: `${pg!.url}&application_name=strata_l0_${++handles}`, schema, poolSize: 2 }),
        async cleanup() {
          await log.close();
          await pg!.dropSchema(schema);
        },
      };
    },
    skip: [
      {
        reason: 'tornTails is false: an append is one transaction, committed whole or not at all',
        tests: ['repair: a torn tail is never read, is cut, and later appends read back whole'],
      },
    ],
  });
});
