import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUsageLogContract } from '../../../test/contracts/usage-log-contract.js';
import { FileUsageLog } from './usage-log.js';

runUsageLogContract({
  name: 'files',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-usage-'));
    return {
      log: new FileUsageLog({ home }),
      open: async () => new FileUsageLog({ home }),
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});
