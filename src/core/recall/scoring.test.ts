import { describe, expect, it } from 'vitest';
import { DEFAULT_RECALL_CONFIG } from './config.js';
import { accessFactor, applyScoring, importanceFactor, lengthFactor, recencyFactor } from './scoring.js';

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
  it('recency halves its boost every half-life', () => {
    expect(recencyFactor({ record: record(), now, config })).toBeCloseTo(1.1);
    expect(recencyFactor({ record: record({ validFrom: '2026-02-15T00:00:00Z' }), now, config })).toBeCloseTo(1.05);
    expect(recencyFactor({ record: record({ validFrom: 'garbage', createdAt: 'garbage' }), now, config })).toBe(1);
  });

  it('importance is neutral at 0.5 and bounded', () => {
    expect(importanceFactor({ importance: 0.5, config })).toBe(1);
    expect(importanceFactor({ importance: 1, config })).toBeCloseTo(1.15);
    expect(importanceFactor({ importance: 0, config })).toBeCloseTo(0.85);
    expect(importanceFactor({ importance: 7, config })).toBeCloseTo(1.15);
  });

  it('access reinforcement saturates and fades', () => {
    expect(accessFactor({ record: record(), now, config })).toBe(1);
    const fresh = accessFactor({ record: record({ accessCount: 10, lastAccessedAt: '2026-03-01T00:00:00Z' }), now, config });
    expect(fresh).toBeCloseTo(1.05);
    expect(accessFactor({ record: record({ accessCount: 1000, lastAccessedAt: '2026-03-01T00:00:00Z' }), now, config })).toBeCloseTo(1.05);
    const stale = accessFactor({ record: record({ accessCount: 10, lastAccessedAt: '2026-01-30T00:00:00Z' }), now, config });
    expect(stale).toBeCloseTo(1.025);
  });

  it('length normalisation damps only texts past the anchor', () => {
    expect(lengthFactor({ text: 'x'.repeat(500), config })).toBe(1);
    expect(lengthFactor({ text: 'x'.repeat(2000), config })).toBeCloseTo(0.5);
  });

  it('applyScoring multiplies the factors and reports them', () => {
    const scored = applyScoring({ record: record({ importance: 1 }), score: 0.5, now, config });
    expect(scored.factors).toEqual({ recency: expect.closeTo(1.1), importance: expect.closeTo(1.15), access: 1, length: 1 });
    expect(scored.score).toBeCloseTo(0.5 * 1.1 * 1.15);
  });

  it('zero weights turn every factor off', () => {
    const off = { ...config, recencyWeight: 0, importanceWeight: 0, accessWeight: 0, lengthPenalty: 0 };
    const scored = applyScoring({ record: record({ importance: 1, accessCount: 5, text: 'y'.repeat(5000) }), score: 0.4, now, config: off });
    expect(scored.score).toBe(0.4);
  });
});
