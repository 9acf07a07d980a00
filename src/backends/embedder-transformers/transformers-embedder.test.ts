import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEmbedderContract } from '../../../test/contracts/embedder-contract.js';
import { cosine } from '../../../test/support/fake-embeddings.js';
import { writeTinyEmbeddingModel } from '../../../test/support/tiny-onnx-model.js';
import { createTransformersEmbedder, defaultsForModel } from './index.js';

// A real ONNX model folder built by the test (no network): the embedder's own loading code runs on it.
const WORDS =
  'the a i my dog dogs cat is called rex barks sleeps stock market report coffee in morning train leaves at noon quarterly revenue grew by ten percent like'.split(
    ' ',
  );
let dir: string;
let modelPath: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-transformers-'));
  modelPath = await writeTinyEmbeddingModel({ dir, words: WORDS, dimensions: 16 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('transformers embedder', () => {
  it('loads a local ONNX model folder, learns its vector length and embeds with mean pooling', async () => {
    const embedder = createTransformersEmbedder({ model: 'test/tiny-bert', modelPath });
    try {
      expect(() => embedder.dimensions).toThrow(/resolveDimensions/);
      expect(await embedder.resolveDimensions()).toBe(16);
      expect(embedder.id).toBe('transformers:test/tiny-bert');
      const { embeddings } = await embedder.doEmbed({ texts: ['the dog barks', 'my dog sleeps', 'stock market report'], kind: 'document' });
      const [barks, sleeps, market] = embeddings as [number[], number[], number[]];
      expect(cosine(barks, sleeps)).toBeGreaterThan(cosine(barks, market));
      for (const v of embeddings) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    } finally {
      await embedder.close();
    }
  });

  it('names the missing files when the folder holds no model, and never reaches for the network', async () => {
    const embedder = createTransformersEmbedder({ model: 'test/absent', modelPath: join(dir, 'absent') });
    await expect(embedder.doEmbed({ texts: ['x'], kind: 'query' })).rejects.toThrow(
      /Cannot load the embedding model test\/absent from .*absent \(expected config\.json, tokenizer\.json and onnx\/model\.onnx\)/,
    );
    const cached = createTransformersEmbedder({ model: 'Xenova/not-downloaded', cacheDir: join(dir, 'cache') });
    await expect(cached.doEmbed({ texts: ['x'], kind: 'query' })).rejects.toThrow(/downloads are off/);
  });

  it('applies the prefixes its model family prescribes', () => {
    expect(defaultsForModel('Xenova/bge-small-en-v1.5')).toMatchObject({
      pooling: 'cls',
      queryPrefix: expect.stringMatching(/^Represent/),
    });
    expect(defaultsForModel('Xenova/multilingual-e5-small')).toEqual({
      pooling: 'mean',
      queryPrefix: 'query: ',
      documentPrefix: 'passage: ',
    });
    expect(defaultsForModel('Xenova/all-MiniLM-L6-v2')).toEqual({ pooling: 'mean' });
  });
});

runEmbedderContract({
  name: 'transformers (tiny local ONNX model)',
  create: async () => {
    const embedder = createTransformersEmbedder({ model: 'test/tiny-bert', modelPath, batchSize: 4 });
    await embedder.resolveDimensions();
    return embedder;
  },
});
