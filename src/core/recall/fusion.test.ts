import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FUSION_CONFIG, type FusionConfig } from './config.js';
import { fuse, normalizeByMax, scaleCosine } from './fusion.js';

const config = (overrides: Partial<FusionConfig> = {}): FusionConfig => ({ ...DEFAULT_FUSION_CONFIG, ...overrides });
const ids = (r: { kept: Array<{ id: string }> }) => r.kept.map((c) => c.id);

describe('fuse: calibrated (default)', () => {
  it('scales each lexical hit by the share of query words it holds, so a one-word match is not a perfect 1', () => {
    const r = fuse({
      lexical: [
        { id: 'migrations', score: 5 },
        { id: 'billing', score: 4.8 },
      ],
      vector: [
        { id: 'billing', score: 0.7 },
        { id: 'migrations', score: 0.3 },
      ],
      coverage: new Map([
        ['migrations', 1 / 3],
        ['billing', 1 / 3],
      ]),
      config: config(),
    });
    expect(ids(r)).toEqual(['billing', 'migrations']);
    expect(r.kept[1]!.lexical).toMatchObject({ normalized: 1, coverage: expect.closeTo(1 / 3), calibrated: expect.closeTo(1 / 3) });
  });

  it('keeps an exact match (every query word, best BM25) at 1 whatever the vector channel says', () => {
    const r = fuse({
      lexical: [{ id: 'ticket', score: 9 }],
      vector: [
        { id: 'paraphrase', score: 0.85 },
        { id: 'ticket', score: 0.1 },
      ],
      coverage: new Map([
        ['ticket', 1],
        ['paraphrase', 0],
      ]),
      config: config(),
    });
    expect(ids(r)).toEqual(['ticket', 'paraphrase']);
    expect(r.kept[0]!.fused).toBe(1);
  });

  it('lets a dense-only hit with a high similarity outrank weak lexical hits', () => {
    const r = fuse({
      lexical: [{ id: 'weak', score: 3 }],
      vector: [
        { id: 'dense', score: 0.8 },
        { id: 'weak', score: 0.25 },
      ],
      coverage: new Map([['weak', 0.25]]),
      config: config(),
    });
    expect(ids(r)).toEqual(['dense', 'weak']);
    expect(r.kept[0]!.fused).toBeCloseTo((0.8 - 0.2) / 0.7);
  });

  it('combines agreeing channels as a noisy-OR, staying within [0, 1]', () => {
    const r = fuse({
      lexical: [{ id: 'a', score: 2 }],
      vector: [{ id: 'a', score: 0.55 }],
      coverage: new Map([['a', 0.5]]),
      config: config(),
    });
    expect(r.kept[0]!.fused).toBeCloseTo(1 - 0.5 * 0.5);
  });
});

describe('helpers', () => {
  it('normalizeByMax divides by the best score and zeroes junk', () => {
    expect(normalizeByMax([4, 2, 0, -1, Number.NaN])).toEqual([1, 0.5, 0, 0, 0]);
    expect(normalizeByMax([])).toEqual([]);
  });
  it('scaleCosine maps floor..ceiling to 0..1 and clamps', () => {
    expect(scaleCosine({ cosine: 0.2, floor: 0.2, ceiling: 0.9 })).toBe(0);
    expect(scaleCosine({ cosine: 0.55, floor: 0.2, ceiling: 0.9 })).toBeCloseTo(0.5);
    expect(scaleCosine({ cosine: 0.95, floor: 0.2, ceiling: 0.9 })).toBe(1);
    expect(scaleCosine({ cosine: -0.5, floor: 0.2, ceiling: 0.9 })).toBe(0);
  });
});

describe('fuse: weighted', () => {
  const config = (overrides: Partial<FusionConfig> = {}): FusionConfig => ({ ...DEFAULT_FUSION_CONFIG, method: 'weighted', ...overrides });
  it('keeps a strong lexical hit above a vector-favoured weak one', () => {
    const r = fuse({
      lexical: [
        { id: 'exact', score: 10 },
        { id: 'weak', score: 3 },
      ],
      vector: [
        { id: 'weak', score: 0.8 },
        { id: 'exact', score: 0.25 },
      ],
      config: config(),
    });
    expect(ids(r)).toEqual(['exact', 'weak']);
    expect(r.kept[0]!.fused).toBeCloseTo(0.92); // strong-lexical floor
  });

  it('lets the vector channel reorder weak lexical hits and add vector-only ones', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 10 },
        { id: 'b', score: 4 },
        { id: 'c', score: 3.8 },
      ],
      vector: [
        { id: 'c', score: 0.85 },
        { id: 'v', score: 0.9 },
      ],
      config: config(),
    });
    expect(ids(r)).toEqual(['a', 'c', 'v', 'b']);
  });

  it('a dense channel that finds nothing close changes nothing (cosines at the floor add 0)', () => {
    const lexical = [
      { id: 'a', score: 5 },
      { id: 'b', score: 4 },
      { id: 'c', score: 1 },
    ];
    const alone = fuse({ lexical, vector: null, config: config() });
    const noisy = fuse({
      lexical,
      vector: [
        { id: 'c', score: 0.18 },
        { id: 'x', score: 0.15 },
      ],
      config: config(),
    });
    expect(ids(noisy)).toEqual(ids(alone));
    expect(noisy.excluded.map((e) => e.candidate.id)).toEqual(['x']);
  });

  it('renormalises weights over the channels that ran', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 2 },
        { id: 'b', score: 1 },
      ],
      vector: null,
      config: config({ strongLexicalThreshold: 1.01 }),
    });
    expect(r.kept.map((c) => c.fused)).toEqual([1, 0.5]);
    const v = fuse({ lexical: null, vector: [{ id: 'a', score: 0.9 }], config: config() });
    expect(v.kept[0]!.fused).toBeCloseTo(1);
  });

  it('a zero lexical weight means dense-only: no lexical floor either', () => {
    const r = fuse({
      lexical: [{ id: 'a', score: 10 }],
      vector: [
        { id: 'b', score: 0.9 },
        { id: 'a', score: 0.2 },
      ],
      config: config({ lexicalWeight: 0, vectorWeight: 1 }),
    });
    expect(ids(r)).toEqual(['b', 'a']);
    expect(r.kept[1]!.fused).toBe(0);
  });

  it('uses computed cosines for lexical hits the vector search missed', () => {
    const withExtra = fuse({
      lexical: [
        { id: 'a', score: 5 },
        { id: 'b', score: 4.9 },
      ],
      vector: [{ id: 'z', score: 0.5 }],
      extraVectorScores: new Map([['b', 0.9]]),
      config: config({ strongLexicalThreshold: 1.01 }),
    });
    expect(ids(withExtra).slice(0, 2)).toEqual(['b', 'a']);
    expect(withExtra.kept[0]!.vector).toEqual({ score: 0.9, scaled: 1 });
  });

  it('ignores duplicate ids within a channel (first occurrence wins)', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 5 },
        { id: 'a', score: 1 },
      ],
      vector: null,
      config: config(),
    });
    expect(r.kept).toHaveLength(1);
    expect(r.kept[0]!.lexical?.rank).toBe(1);
  });
});

describe('fuse: rrf', () => {
  it('sums weighted reciprocal ranks, normalised to 1 for a double first place', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 9 },
        { id: 'b', score: 1 },
      ],
      vector: [
        { id: 'a', score: 0.9 },
        { id: 'c', score: 0.8 },
      ],
      config: config({ method: 'rrf', lexicalWeight: 1, vectorWeight: 1, rrfK: 60 }),
    });
    expect(ids(r)).toEqual(['a', 'b', 'c']);
    expect(r.kept[0]!.fused).toBeCloseTo(1);
    expect(r.kept[1]!.fused).toBeCloseTo(0.5 * (61 / 62));
  });

  it('weights shift ties towards the heavier channel', () => {
    const r = fuse({
      lexical: [{ id: 'l', score: 9 }],
      vector: [{ id: 'v', score: 0.9 }],
      config: config({ method: 'rrf', lexicalWeight: 0.7, vectorWeight: 0.3 }),
    });
    expect(ids(r)).toEqual(['l', 'v']);
  });
});

describe('fuse: lexical-first', () => {
  it('keeps lexical order between hits 1e-9 apart (a fast-check counterexample)', () => {
    const r = fuse({
      lexical: [
        { id: 'm1', score: 0.010000000010000005 },
        { id: 'm0', score: 0.010000000010000003 },
        { id: 'm18', score: 0.01 },
      ],
      vector: [{ id: 'm18', score: 0.9 }],
      config: config({ method: 'lexical-first' }),
    });
    expect(ids(r)).toEqual(['m1', 'm0', 'm18']);
  });

  it('never reorders lexical hits; vector only breaks exact ties', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 5 },
        { id: 'b', score: 4.99 },
        { id: 'c', score: 2 },
        { id: 'd', score: 2 },
      ],
      vector: [
        { id: 'd', score: 0.99 },
        { id: 'b', score: 0.99 },
      ],
      config: config({ method: 'lexical-first' }),
    });
    expect(ids(r)).toEqual(['a', 'b', 'd', 'c']);
  });

  it('admits vector-only hits above vectorOnlyMinSimilarity and reports the rest', () => {
    const r = fuse({
      lexical: [
        { id: 'a', score: 5 },
        { id: 'b', score: 1 },
      ],
      vector: [
        { id: 'v1', score: 0.9 },
        { id: 'v2', score: 0.5 },
      ],
      config: config({ method: 'lexical-first', vectorWeight: 0.5 }),
    });
    expect(ids(r)).toEqual(['a', 'v1', 'b']);
    expect(r.excluded).toEqual([
      { candidate: expect.objectContaining({ id: 'v2' }), reason: expect.stringContaining('vectorOnlyMinSimilarity') },
    ]);
  });
});

describe('fuse: properties', () => {
  const hits = (prefix: string, score: fc.Arbitrary<number>) =>
    fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 30 }).map((n) => `${prefix}${n}`), score }), {
      selector: (h) => h.id,
      maxLength: 25,
    });
  // Shared id space so channels overlap.
  const lexical = hits('m', fc.double({ min: 0.01, max: 30, noNaN: true })).map((l) => [...l].sort((a, b) => b.score - a.score));
  const vector = hits('m', fc.double({ min: -1, max: 1, noNaN: true })).map((v) => [...v].sort((a, b) => b.score - a.score));
  const method = fc.constantFrom('weighted' as const, 'rrf' as const, 'lexical-first' as const);

  it('scores stay in [0, 1] and every candidate is kept or excluded exactly once', () => {
    fc.assert(
      fc.property(lexical, vector, method, (l, v, m) => {
        const r = fuse({ lexical: l, vector: v, config: config({ method: m }) });
        for (const c of r.kept) expect(c.fused >= 0 && c.fused <= 1).toBe(true);
        const all = [...r.kept.map((c) => c.id), ...r.excluded.map((e) => e.candidate.id)];
        expect(new Set(all).size).toBe(all.length);
        expect(new Set(all)).toEqual(new Set([...l, ...v].map((h) => h.id)));
      }),
    );
  });

  it('without a vector channel every method keeps the lexical order', () => {
    fc.assert(
      fc.property(lexical, method, (l, m) => {
        const r = fuse({ lexical: l, vector: null, config: config({ method: m }) });
        expect(ids(r)).toEqual(l.map((h) => h.id));
      }),
    );
  });

  it('lexical-first never reorders lexical hits whatever the vector channel says', () => {
    fc.assert(
      fc.property(lexical, vector, (l, v) => {
        const r = fuse({ lexical: l, vector: v, config: config({ method: 'lexical-first' }) });
        const lexicalIds = new Set(l.map((h) => h.id));
        const order = ids(r).filter((id) => lexicalIds.has(id));
        const scores = new Map(l.map((h) => [h.id, h.score]));
        for (let i = 1; i < order.length; i++) {
          expect(scores.get(order[i - 1]!)! >= scores.get(order[i]!)! - 1e-9 * Math.max(...l.map((h) => h.score))).toBe(true);
        }
      }),
    );
  });
});
