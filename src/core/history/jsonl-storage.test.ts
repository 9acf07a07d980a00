import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHistoryLogContract } from '../../../test/contracts/history-log-contract.js';
import { JsonlHistoryStorage } from './jsonl-storage.js';

async function create() {
  const home = await mkdtemp(join(tmpdir(), 'strata-hist-'));
  return {
    log: new JsonlHistoryStorage({ home }),
    open: async () => new JsonlHistoryStorage({ home }),
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}

runHistoryLogContract({ name: 'jsonl', create });
