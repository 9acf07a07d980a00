import { afterAll, describe, expect, it } from 'vitest';
import { runEmbedderContract } from '../../../test/contracts/embedder-contract.js';
import { cosine } from '../../../test/support/fake-embeddings.js';
import { createLocalEmbedder } from './index.js';

// One shared instance for the checks below; the model costs ~0.2 s to load and ~7 ms per sentence.
const embedder = createLocalEmbedder();
afterAll(() => embedder.close());

describe('local embedder (USE lite)', () => {
  it('loads lazily, once for concurrent first calls, without writing to stdout', async () => {
    expect(embedder.state).toBe('idle');
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      const pending = [embedder.doEmbed({ texts: ['a'], kind: 'query' }), embedder.doEmbed({ texts: ['b'], kind: 'document' })];
      expect(embedder.state).toBe('loading');
      const results = await Promise.all(pending);
      expect(results.map((r) => r.embeddings[0]?.length)).toEqual([512, 512]);
    } finally {
      process.stdout.write = write;
    }
    expect(embedder.state).toBe('ready');
    expect(embedder.loadTimeMs).toBeGreaterThan(0);
    expect(written.join('')).toBe('');
  });

  it('places paraphrases closer than unrelated sentences, with unit-length vectors', async () => {
    const { embeddings } = await embedder.doEmbed({ texts: ['I like coffee', 'I enjoy drinking coffee', 'the train leaves at noon'], kind: 'document' });
    const [coffee, enjoy, train] = embeddings as [number[], number[], number[]];
    expect(cosine(coffee, enjoy)).toBeGreaterThan(cosine(coffee, train));
    for (const v of embeddings) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('keeps one vector per text when a text is empty', async () => {
    for (const texts of [['', 'hello'], ['hello', '']]) {
      const { embeddings } = await embedder.doEmbed({ texts, kind: 'document' });
      expect(embeddings.map((v) => v.length)).toEqual([512, 512]);
    }
  });
});

runEmbedderContract({ name: 'local (USE lite, batch size 8)', create: () => createLocalEmbedder({ batchSize: 8 }) });
