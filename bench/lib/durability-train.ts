/**
 * Fits the learned admission baseline (durability-model.ts): L2-regularised
 * logistic regression, full-batch Adam, classes weighted so keepers (about one unit in six) count as
 * much as junk. Features seen in fewer than `minCount` training units are dropped, so a name that
 * occurs once cannot carry a decision. Deterministic: same rows, same weights.
 */
import type { DurabilityModel } from './durability-model.js';

export interface TrainRow {
  features: readonly string[];
  keep: boolean;
}

export interface TrainOptions {
  l2?: number;
  epochs?: number;
  minCount?: number;
}

export const TRAIN_DEFAULTS = { l2: 0.001, epochs: 300, minCount: 2 } as const;

export function trainDurability(rows: readonly TrainRow[], options: TrainOptions = {}): DurabilityModel {
  const { l2, epochs, minCount } = { ...TRAIN_DEFAULTS, ...options };
  const counts = new Map<string, number>();
  for (const r of rows) for (const f of r.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts].filter(([, c]) => c >= minCount).map(([f]) => f);
  const index = new Map(names.map((f, i) => [f, i]));
  const xs = rows.map((r) => r.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined));
  const keeps = rows.filter((r) => r.keep).length;
  const junk = rows.length - keeps;
  const classWeight = (keep: boolean) => (keep ? rows.length / (2 * Math.max(1, keeps)) : rows.length / (2 * Math.max(1, junk)));

  const n = names.length + 1; // last slot: bias
  const w = new Float64Array(n);
  const m = new Float64Array(n);
  const v = new Float64Array(n);
  const grad = new Float64Array(n);
  const rate = 0.05;
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    grad.fill(0);
    for (let r = 0; r < rows.length; r++) {
      const x = xs[r]!;
      let z = w[n - 1]!;
      for (const i of x) z += w[i]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - (rows[r]!.keep ? 1 : 0)) * classWeight(rows[r]!.keep);
      for (const i of x) grad[i]! += g;
      grad[n - 1]! += g;
    }
    for (let i = 0; i < n; i++) {
      const gi = grad[i]! / rows.length + (i < n - 1 ? l2 * w[i]! : 0);
      m[i] = b1 * m[i]! + (1 - b1) * gi;
      v[i] = b2 * v[i]! + (1 - b2) * gi * gi;
      const mh = m[i]! / (1 - b1 ** epoch);
      const vh = v[i]! / (1 - b2 ** epoch);
      w[i]! -= (rate * mh) / (Math.sqrt(vh) + eps);
    }
  }
  const weights: Record<string, number> = {};
  names.forEach((f, i) => {
    const x = Math.round(w[i]! * 1e4) / 1e4;
    if (x !== 0) weights[f] = x;
  });
  return { version: 1, bias: Math.round(w[n - 1]! * 1e4) / 1e4, weights };
}
