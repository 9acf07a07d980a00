import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConversationIndexContract } from '../../../test/contracts/conversation-index-contract.js';
import { createLanceConversationIndex } from './index.js';

async function create() {
  const dir = await mkdtemp(join(tmpdir(), 'strata-conv-'));
  const index = createLanceConversationIndex({ dir: join(dir, 'index') });
  return {
    index,
    open: async () => createLanceConversationIndex({ dir: join(dir, 'index') }),
    async cleanup() {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

runConversationIndexContract({ name: 'lancedb', create, dimensions: 8 });
runConversationIndexContract({ name: 'lancedb', create, dimensions: 0 });
