import { afterAll, describe, expect, it } from 'vitest';
import { runEmbedderContract } from '../../../test/contracts/embedder-contract.js';
import { cosine } from '../../../test/support/fake-embeddings.js';
import { createLocalEmbedder } from './index.js';

// One shared instance for the checks below (a worker thread; the model loads on the first call).
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
    const { embeddings } = await embedder.doEmbed({
      texts: ['I like coffee', 'I enjoy drinking coffee', 'the train leaves at noon'],
      kind: 'document',
    });
    const [coffee, enjoy, train] = embeddings as [number[], number[], number[]];
    expect(cosine(coffee, enjoy)).toBeGreaterThan(cosine(coffee, train));
    for (const v of embeddings) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('keeps one vector per text when a text is empty', async () => {
    for (const texts of [
      ['', 'hello'],
      ['hello', ''],
    ]) {
      const { embeddings } = await embedder.doEmbed({ texts, kind: 'document' });
      expect(embeddings.map((v) => v.length)).toEqual([512, 512]);
    }
  });
});

describe('local embedder off the event loop', () => {
  it('keeps the event loop turning while a batch is embedded on the worker thread', async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `sentence number ${i} about a dog, a cat and the city they live in`);
    await embedder.doEmbed({ texts: ['warm up'], kind: 'query' });
    let ticks = 0;
    let spinning = true;
    const spin = () => {
      ticks++;
      if (spinning) setTimeout(spin, 1);
    };
    setTimeout(spin, 1);
    const started = ticks;
    await embedder.doEmbed({ texts, kind: 'document' });
    spinning = false;
    // Inline, 64 sentences block the loop for their whole inference: no timer could fire meanwhile.
    expect(ticks - started).toBeGreaterThan(3);
  });

  it('merges calls that arrive while the model is busy into one model call, each caller getting its own vectors', async () => {
    const texts = [
      'the dog is called Rex',
      'the cat is called Tom',
      'we moved to Lisbon',
      'billing runs on PostgreSQL 16',
      'tests need docker',
    ];
    const alone = await Promise.all(texts.map(async (t) => (await embedder.doEmbed({ texts: [t], kind: 'query' })).embeddings[0]!));
    const before = embedder.modelCalls;
    const merged = await Promise.all(texts.map(async (t) => (await embedder.doEmbed({ texts: [t], kind: 'query' })).embeddings[0]!));
    // The first call starts alone; the four that queue behind it run as one.
    expect(embedder.modelCalls - before).toBeLessThanOrEqual(2);
    merged.forEach((v, i) => expect(cosine(v, alone[i]!)).toBeCloseTo(1, 5));
  });
});

runEmbedderContract({ name: 'local (USE lite, batch size 8)', create: () => createLocalEmbedder({ batchSize: 8 }) });
runEmbedderContract({ name: 'local (USE lite, inline thread)', create: () => createLocalEmbedder({ thread: 'inline' }) });
