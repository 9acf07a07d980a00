import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJournalStoreContract } from '../../../test/contracts/journal-store-contract.js';
import { FileJournalStore } from './file-store.js';

runJournalStoreContract({
  name: 'files',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-journal-store-'));
    return {
      store: new FileJournalStore({ home }),
      open: async () => new FileJournalStore({ home }),
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});
