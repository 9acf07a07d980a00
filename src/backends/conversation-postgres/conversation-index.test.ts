import { afterAll, describe } from 'vitest';
import { runConversationIndexContract } from '../../../test/contracts/conversation-index-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { createPostgresConversationIndex } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

/**
 * `open` is another handle with a pool of its own (a distinct URL gets a distinct pool), so the
 * write-lock tests meet the server-side advisory lock, as two processes would.
 */
async function create() {
  const schema = pg!.schemaName('conv');
  const index = createPostgresConversationIndex({ url: pg!.url, schema, poolSize: 4 });
  let handles = 0;
  return {
    index,
    open: async () =>
      createPostgresConversationIndex({
        url: `${pg!.url}${pg!.url.includes('?') ? '&' : '?'}application_name=strata_other_${++handles}`,
        schema,
        poolSize: 2,
      }),
    async cleanup() {
      await index.close();
      await pg!.dropSchema(schema);
    },
  };
}

describe.skipIf(!pg)('postgres conversation index', () => {
  runConversationIndexContract({ name: 'postgres', create, dimensions: 8 });
  runConversationIndexContract({ name: 'postgres', create, dimensions: 0 });
});
