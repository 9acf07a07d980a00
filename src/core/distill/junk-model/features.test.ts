import { describe, expect, it } from 'vitest';
import { inverseDocumentFrequency, termCounts, termWeight } from './features.js';

describe('junk model features', () => {
  it('reads words of two or more letters in any script, and bigrams of neighbouring words', () => {
    const { words } = termCounts('Prefiero el café, a secas');
    expect([...words.keys()]).toEqual(['prefiero', 'prefiero el', 'el', 'el café', 'café', 'café secas', 'secas']);
  });

  it('reads character 2-5-grams inside each padded word, a short word counted once as itself', () => {
    const { chars } = termCounts('ok OK');
    // " ok " gives " o", "ok", "k ", " ok", "ok ", " ok " and no more (it is shorter than 5).
    expect(Object.fromEntries(chars)).toEqual({ ' o': 2, ok: 2, 'k ': 2, ' ok': 2, 'ok ': 2, ' ok ': 2 });
  });

  it('weights a repeated term sublinearly and a rare term above a common one', () => {
    expect(termWeight(1, 2)).toBe(2);
    expect(termWeight(3, 2)).toBeCloseTo(2 * (1 + Math.log(3)));
    expect(inverseDocumentFrequency(100, 2)).toBeGreaterThan(inverseDocumentFrequency(100, 50));
  });
});
