import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDistillProgressContract } from '../../../test/contracts/distill-progress-contract.js';
import { FileDistillProgress } from './file-progress.js';

runDistillProgressContract({
  name: 'files',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-distill-progress-'));
    return {
      progress: new FileDistillProgress({ home }),
      open: async () => new FileDistillProgress({ home }),
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});
