import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSummaryStoreContract } from '../../../test/contracts/summary-store-contract.js';
import { FileSummaryStore } from './file-store.js';

runSummaryStoreContract({
  name: 'files',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-summary-store-'));
    return {
      store: new FileSummaryStore({ home }),
      open: async () => new FileSummaryStore({ home }),
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});
