import { FEATURE_BLOCKS, inverseDocumentFrequency, termCounts, termWeight, type FeatureBlock } from './features.js';
import type { LinearTextModel } from './model.js';
import { minimize } from './lbfgs.js';

export interface LabelledText {
  text: string;
  keep: boolean;
}

export interface TrainOptions {
  rows: LabelledText[];
  /** Inverse regularisation strength: larger fits the training rows more closely. Default 4. */
  c?: number;
  /** A term seen in fewer documents is dropped. Default 2. */
  minDocumentFrequency?: number;
  /** Recorded in the model. */
  files?: string[];
}

interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

/**
 * Fits L2-regularised logistic regression with balanced class weights (each class weighs as much
 * as the other in total, so a set with more keep than junk rows does not tilt the model):
 * minimises ½‖w‖² + C·Σ weightᵢ·log-lossᵢ, the intercept unpenalised.
 */
export function trainLinearTextModel(options: TrainOptions): LinearTextModel {
  const c = options.c ?? 4;
  const minDf = options.minDocumentFrequency ?? 2;
  const { rows } = options;
  const counts = rows.map((r) => termCounts(r.text));
  // Vocabulary: terms of each block seen in at least minDf rows, numbered across blocks.
  const vocab: Record<FeatureBlock, Map<string, { id: number; idf: number }>> = { words: new Map(), chars: new Map() };
  let size = 0;
  for (const block of FEATURE_BLOCKS) {
    const df = new Map<string, number>();
    for (const row of counts) for (const term of row[block].keys()) df.set(term, (df.get(term) ?? 0) + 1);
    for (const [term, n] of [...df].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      if (n >= minDf) vocab[block].set(term, { id: size++, idf: inverseDocumentFrequency(rows.length, n) });
  }
  const x: SparseRow[] = counts.map((row) => {
    const index: number[] = [];
    const value: number[] = [];
    for (const block of FEATURE_BLOCKS) {
      const start = value.length;
      for (const [term, count] of row[block]) {
        const entry = vocab[block].get(term);
        if (!entry) continue;
        index.push(entry.id);
        value.push(termWeight(count, entry.idf));
      }
      let norm = 0;
      for (let k = start; k < value.length; k++) norm += value[k]! * value[k]!;
      norm = Math.sqrt(norm);
      for (let k = start; k < value.length; k++) value[k]! /= norm || 1;
    }
    return { index: Int32Array.from(index), value: Float64Array.from(value) };
  });
  const y: number[] = rows.map((r) => (r.keep ? 1 : 0));
  const keep = y.reduce((a, b) => a + b, 0);
  const classWeight = [rows.length / (2 * (rows.length - keep)), rows.length / (2 * keep)] as const;

  // Parameters: size coefficients, then the intercept.
  const objective = (w: Float64Array, grad: Float64Array): number => {
    let loss = 0;
    grad.fill(0);
    for (let k = 0; k < size; k++) {
      loss += 0.5 * w[k]! * w[k]!;
      grad[k] = w[k]!;
    }
    for (const [i, row] of x.entries()) {
      let z = w[size]!;
      for (let k = 0; k < row.index.length; k++) z += w[row.index[k]!]! * row.value[k]!;
      const label = y[i]!;
      const weight = c * classWeight[label]!;
      // log(1 + e^-z) for label 1, log(1 + e^z) for label 0, computed without overflow.
      const signed = label === 1 ? -z : z;
      loss += weight * (signed > 0 ? signed + Math.log1p(Math.exp(-signed)) : Math.log1p(Math.exp(signed)));
      const p = 1 / (1 + Math.exp(-z));
      const g = weight * (p - label);
      for (let k = 0; k < row.index.length; k++) grad[row.index[k]!]! += g * row.value[k]!;
      grad[size]! += g;
    }
    return loss;
  };
  const w = minimize(objective, new Float64Array(size + 1), { maxIterations: 2000, gradientTolerance: 1e-6 });

  const terms: LinearTextModel['terms'] = { words: {}, chars: {} };
  for (const block of FEATURE_BLOCKS)
    for (const [term, { id, idf }] of vocab[block]) terms[block][term] = [round(idf, 4), round(w[id]!, 5)];
  return {
    version: 1,
    trainedOn: { files: options.files ?? [], rows: rows.length, keep, c, minDocumentFrequency: minDf },
    intercept: round(w[size]!, 5),
    terms,
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
