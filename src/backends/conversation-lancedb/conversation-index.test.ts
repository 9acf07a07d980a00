import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doc, runConversationIndexContract } from '../../../test/contracts/conversation-index-contract.js';
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

describe('lancedb conversation index: a creation cut short', () => {
  it('makes the table again when a kill left it without versions and without meta, and re-indexes from the start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-conv-cut-'));
    try {
      const first = createLanceConversationIndex({ dir: join(dir, 'index') });
      await first.initMeta({ embedderId: 'none', dimensions: 0 });
      await first.upsert({ documents: [doc(1, 'staging database on port 5433')], watermark: 'p000001' });
      await first.close();
      // What a kill -9 inside the first creation leaves: the table's folder without a committed version, no meta.
      await rm(join(dir, 'index', 'turns.lance', '_versions'), { recursive: true, force: true });
      await rm(join(dir, 'index', 'conversation-index.json'), { force: true });

      const next = createLanceConversationIndex({ dir: join(dir, 'index') });
      await next.initMeta({ embedderId: 'none', dimensions: 0 });
      expect(await next.watermark()).toBeUndefined();
      await next.upsert({ documents: [doc(2, 'the staging database moved to port 5434')] });
      expect(await next.count()).toBe(1);
      expect((await next.searchText({ query: 'staging', limit: 5, filter: {} })).map((h) => h.document.id)).toHaveLength(1);
      await next.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
