import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_CONFIG } from './config.js';
import { cosineSimilarity, demoteNearDuplicates, jaccard } from './diversity.js';

const config = DEFAULT_RECALL_CONFIG.diversity;

describe('diversity', () => {
  it('cosine and jaccard basics', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBe(0);
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3);
  });

  it('demotes a vector near-duplicate to the end without dropping it', () => {
    const { order, demoted } = demoteNearDuplicates({
      items: [
        { id: 'a', text: 'User prefers dark mode', vector: [1, 0, 0] },
        { id: 'b', text: 'The user likes a dark theme', vector: [0.99, 0.05, 0] },
        { id: 'c', text: 'Deploys go through GitHub Actions', vector: [0, 1, 0] },
      ],
      config,
    });
    expect(order).toEqual(['a', 'c', 'b']);
    expect(demoted).toEqual([{ id: 'b', similarTo: 'a', similarity: expect.any(Number), by: 'vector' }]);
  });

  it('stops comparing once `keep` items are kept: the first `keep` of the order are the same', () => {
    const items = [
      { id: 'a', text: 'User prefers dark mode', vector: [1, 0, 0] },
      { id: 'b', text: 'The user likes a dark theme', vector: [0.99, 0.05, 0] },
      { id: 'c', text: 'Deploys go through GitHub Actions', vector: [0, 1, 0] },
      { id: 'd', text: 'Deploys run via GitHub Actions', vector: [0.01, 0.99, 0] },
      { id: 'e', text: 'Lunch is at noon', vector: [0, 0, 1] },
    ];
    const full = demoteNearDuplicates({ items, config });
    const cut = demoteNearDuplicates({ items, config, keep: 2 });
    expect(full.order).toEqual(['a', 'c', 'e', 'b', 'd']);
    expect(cut.order.slice(0, 2)).toEqual(full.order.slice(0, 2));
    expect(cut.order).toEqual(['a', 'c', 'd', 'e', 'b']); // d and e never compared
    expect(cut.demoted.map((d) => d.id)).toEqual(['b']);
  });

  it('falls back to token overlap without vectors', () => {
    const { order, demoted } = demoteNearDuplicates({
      items: [
        { id: 'a', text: 'The staging database is Postgres 16 on Neon' },
        { id: 'b', text: 'the staging database is postgres 16 on neon!' },
        { id: 'c', text: 'Production runs on Fly' },
      ],
      config,
    });
    expect(order).toEqual(['a', 'c', 'b']);
    expect(demoted[0]).toMatchObject({ id: 'b', similarTo: 'a', by: 'tokens', similarity: 1 });
  });

  it('does nothing when disabled', () => {
    const items = [
      { id: 'a', text: 'same' },
      { id: 'b', text: 'same' },
    ];
    expect(demoteNearDuplicates({ items, config: { ...config, enabled: false } })).toEqual({ order: ['a', 'b'], demoted: [] });
  });
});
