import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLayerStoreContract } from '../../../test/contracts/layer-store-contract.js';
import { FileLayerStore } from './file-store.js';

runLayerStoreContract({
  name: 'files',
  async create() {
    const home = await mkdtemp(join(tmpdir(), 'strata-layer-store-'));
    return {
      store: new FileLayerStore({ home }),
      open: async () => new FileLayerStore({ home }),
      cleanup: () => rm(home, { recursive: true, force: true }),
    };
  },
});

describe('file layer store layout', () => {
  it("keeps today's paths: scenes and index under scenes/<agent>, persona/<agent>.md, checkpoint under layers/<agent>", async () => {
    const home = await mkdtemp(join(tmpdir(), 'strata-layer-store-'));
    try {
      const store = new FileLayerStore({ home });
      await store.commit({
        agentId: 'main',
        changes: [
          { name: 'scenes/lab.md', text: 'lab' },
          { name: 'scenes/.index.json', text: '{}' },
          { name: 'persona.md', text: 'persona' },
          { name: 'checkpoint.json', text: '{"totalProcessed":1}' },
        ],
        expectedVersion: 0,
      });
      expect(await readFile(join(home, 'scenes', 'main', 'lab.md'), 'utf8')).toBe('lab');
      expect(await readFile(join(home, 'scenes', 'main', '.index.json'), 'utf8')).toBe('{}');
      expect(await readFile(join(home, 'persona', 'main.md'), 'utf8')).toBe('persona');
      expect(await readFile(join(home, 'layers', 'main', 'checkpoint.json'), 'utf8')).toBe('{"totalProcessed":1}');
      expect(JSON.parse(await readFile(join(home, 'layers', 'main', 'version.json'), 'utf8'))).toEqual({ version: 1 });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
