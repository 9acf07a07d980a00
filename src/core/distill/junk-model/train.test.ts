import { describe, expect, it } from 'vitest';
import { minimize } from './lbfgs.js';
import { keepProbability } from './model.js';
import { trainLinearTextModel } from './train.js';

describe('L-BFGS', () => {
  it('finds the minimum of an ill-conditioned quadratic', () => {
    // f(x) = Σ 10^i (x_i - i)²: minimum at x_i = i, curvatures spanning four orders of magnitude.
    const x = minimize(
      (v, g) => {
        let f = 0;
        for (let i = 0; i < v.length; i++) {
          const d = v[i]! - i;
          f += 10 ** i * d * d;
          g[i] = 2 * 10 ** i * d;
        }
        return f;
      },
      new Float64Array(5),
      { gradientTolerance: 1e-9 },
    );
    expect([...x].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('training the linear text model', () => {
  const rows = [
    ...['we deploy on fridays never', 'our db is postgres 16', 'i am allergic to peanuts', 'the team uses pnpm'].map((text) => ({
      text,
      keep: true,
    })),
    ...['can u fix this', 'thx that worked', 'can u check the build', 'lol ok', 'fix the build pls', 'thx'].map((text) => ({
      text,
      keep: false,
    })),
  ];

  it('separates the rows it was given, whatever the class sizes', () => {
    const model = trainLinearTextModel({ rows, minDocumentFrequency: 1 });
    for (const row of rows) expect(keepProbability(model, row.text) > 0.5).toBe(row.keep);
    expect(model.trainedOn).toMatchObject({ rows: 10, keep: 4, c: 4, minDocumentFrequency: 1 });
  });

  it('drops terms seen in fewer rows than the minimum', () => {
    const model = trainLinearTextModel({ rows, minDocumentFrequency: 2 });
    expect(model.terms.words['peanuts']).toBeUndefined();
    expect(model.terms.words['can']).toBeDefined();
  });

  it('reads unseen text at the prior, and text of unseen terms only likewise', () => {
    const model = trainLinearTextModel({ rows, minDocumentFrequency: 1 });
    const prior = 1 / (1 + Math.exp(-model.intercept));
    expect(keepProbability(model, '')).toBeCloseTo(prior);
    expect(keepProbability(model, '本当に')).toBeCloseTo(prior);
  });
});
