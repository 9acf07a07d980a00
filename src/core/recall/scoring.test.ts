import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_CONFIG } from './config.js';
import {
  accessFactor,
  applyScoring,
  dateFactor,
  formFactor,
  importanceFactor,
  isQuestion,
  lengthFactor,
  recencyFactor,
} from './scoring.js';

const config = DEFAULT_RECALL_CONFIG.scoring;
const now = Date.parse('2026-03-01T00:00:00Z');
const record = (fields: Partial<Parameters<typeof applyScoring>[0]['record']> = {}) => ({
  text: 'short memory',
  importance: 0.5,
  validFrom: '2026-03-01T00:00:00Z',
  createdAt: '2026-03-01T00:00:00Z',
  accessCount: 0,
  lastAccessedAt: null,
  ...fields,
});

describe('scoring factors', () => {
  it('recency: a memory from today keeps its score; an old one loses up to w/(1+w)', () => {
    expect(recencyFactor({ record: record(), now, config })).toBeCloseTo(1);
    expect(recencyFactor({ record: record({ validFrom: '2026-02-15T00:00:00Z' }), now, config })).toBeCloseTo(1.05 / 1.1);
    expect(recencyFactor({ record: record({ validFrom: '2020-01-01T00:00:00Z' }), now, config })).toBeCloseTo(1 / 1.1);
    expect(recencyFactor({ record: record({ validFrom: 'garbage', createdAt: 'garbage' }), now, config })).toBe(1);
  });

  it('importance 1 keeps the score, lower importance lowers it, bounded', () => {
    expect(importanceFactor({ importance: 1, config })).toBeCloseTo(1);
    expect(importanceFactor({ importance: 0.5, config })).toBeCloseTo(1 / 1.15);
    expect(importanceFactor({ importance: 0, config })).toBeCloseTo(0.85 / 1.15);
    expect(importanceFactor({ importance: 7, config })).toBeCloseTo(1);
  });

  it('access reinforcement is off by default, and when on saturates and fades', () => {
    expect(accessFactor({ record: record({ accessCount: 10, lastAccessedAt: '2026-03-01T00:00:00Z' }), now, config })).toBe(1);
    const on = { ...config, accessWeight: 0.05 };
    expect(accessFactor({ record: record(), now, config: on })).toBeCloseTo(1 / 1.05);
    expect(accessFactor({ record: record({ accessCount: 1000, lastAccessedAt: '2026-03-01T00:00:00Z' }), now, config: on })).toBeCloseTo(1);
    expect(accessFactor({ record: record({ accessCount: 10, lastAccessedAt: '2026-01-30T00:00:00Z' }), now, config: on })).toBeCloseTo(
      1.025 / 1.05,
    );
  });

  it('length normalisation damps only texts past the anchor', () => {
    expect(lengthFactor({ text: 'x'.repeat(500), config })).toBe(1);
    expect(lengthFactor({ text: 'x'.repeat(2000), config })).toBeCloseTo(0.5);
  });

  it('a question is damped; a statement, or a question followed by an attached photo note, is judged by its last sentence', () => {
    expect(isQuestion('What other activities do you both enjoy?')).toBe(true);
    expect(isQuestion('Wow! Did you paint that? 😍')).toBe(true);
    expect(isQuestion('What did you think? [shares a photo: a sunset]')).toBe(true);
    expect(isQuestion('你喜欢什么？')).toBe(true);
    expect(isQuestion('Did you? I painted a sunrise.')).toBe(false);
    expect(formFactor({ text: 'Is it Rex?', config })).toBe(0.8);
  });

  it('a query naming a time damps memories dated away from it', () => {
    const range = { start: Date.parse('2026-02-01T00:00:00Z'), end: Date.parse('2026-03-01T00:00:00Z'), text: 'February' };
    expect(dateFactor({ time: Date.parse('2026-02-10T00:00:00Z'), range, config })).toBe(1);
    expect(dateFactor({ time: Date.parse('2025-06-01T00:00:00Z'), range, config })).toBeLessThan(0.75);
    expect(dateFactor({ time: Date.parse('2025-06-01T00:00:00Z'), range: null, config })).toBe(1);
  });

  it('applyScoring multiplies the factors, reports them and stays within [0, 1]', () => {
    const scored = applyScoring({ record: record({ importance: 1 }), score: 0.5, now, config });
    expect(scored.factors).toEqual({ recency: expect.closeTo(1), importance: expect.closeTo(1), access: 1, length: 1, form: 1, date: 1 });
    expect(scored.score).toBeCloseTo(0.5);
    expect(applyScoring({ record: record({ importance: 1 }), score: 1, now, config }).score).toBeLessThanOrEqual(1);
  });

  it('zero weights turn every factor off', () => {
    const off = { ...config, recencyWeight: 0, importanceWeight: 0, accessWeight: 0, lengthPenalty: 0, questionFactor: 1, dateWeight: 0 };
    const scored = applyScoring({
      record: record({ importance: 1, accessCount: 5, text: 'y'.repeat(5000) + '?' }),
      score: 0.4,
      now,
      config: off,
    });
    expect(scored.score).toBe(0.4);
  });
});
