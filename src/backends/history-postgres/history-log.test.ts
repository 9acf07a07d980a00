import { afterAll, describe } from 'vitest';
import { runHistoryLogContract } from '../../../test/contracts/history-log-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresHistoryLog } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

async function create() {
  const schema = pg!.schemaName('hist');
  const log = createPostgresHistoryLog({ url: pg!.url, schema, poolSize: 4 });
  let handles = 0;
  return {
    log,
    // A pool of its own: another process, in effect.
    open: async () => createPostgresHistoryLog({ url: `${pg!.url}&application_name=strata_hist_${++handles}`, schema, poolSize: 2 }),
    async cleanup() {
      await log.close();
      await pg!.dropSchema(schema);
    },
  };
}

describe.skipIf(!pg)('postgres history log', () => {
  runHistoryLogContract({ name: 'postgres', create });
});
