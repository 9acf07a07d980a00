import { afterAll, describe } from 'vitest';
import { runDistillProgressContract } from '../../../test/contracts/distill-progress-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresDistillProgress } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe.skipIf(!pg)('postgres distill progress', () => {
  runDistillProgressContract({
    name: 'postgres',
    async create() {
      const schema = pg!.schemaName('distill');
      const progress = createPostgresDistillProgress({ url: pg!.url, schema, poolSize: 4, logKey: 'log-a' });
      let handles = 0;
      return {
        progress,
        // A pool of its own: another process, in effect.
        open: async () =>
          createPostgresDistillProgress({
            url: `${pg!.url}&application_name=strata_distill_${++handles}`,
            schema,
            poolSize: 2,
            logKey: 'log-a',
          }),
        async cleanup() {
          await progress.close();
          await pg!.dropSchema(schema);
        },
      };
    },
  });
});
