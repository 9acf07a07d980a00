import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FingerprintSet } from './fingerprint-set.js';
import { fingerprint as hashId } from './seen-index.js';

describe('FingerprintSet', () => {
  it('behaves like a Set of fingerprints across growth', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { maxLength: 3000 }), (values) => {
        const ours = new FingerprintSet(4);
        const ref = new Set<string>();
        for (const v of values) {
          const fp = hashId(`v${v}`);
          expect(ours.add(fp)).toBe(!ref.has(fp));
          ref.add(fp);
        }
        expect(ours.size).toBe(ref.size);
        for (let v = 0; v < 200; v += 1) expect(ours.has(hashId(`v${v}`))).toBe(ref.has(hashId(`v${v}`)));
      }),
      { numRuns: 30 },
    );
  });

  it('tracks the all-zero fingerprint', () => {
    const set = new FingerprintSet();
    expect(set.has('AAAAAAAAAAAAAAAA')).toBe(false);
    expect(set.add('AAAAAAAAAAAAAAAA')).toBe(true);
    expect(set.add('AAAAAAAAAAAAAAAA')).toBe(false);
    expect(set.has('AAAAAAAAAAAAAAAA')).toBe(true);
    expect(set.size).toBe(1);
  });
});
