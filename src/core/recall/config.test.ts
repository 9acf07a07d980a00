import { describe, expect, it } from 'vitest';
import { StrataError } from '../../errors/index.js';
import { DEFAULT_RECALL_CONFIG, recallConfigSchema, resolveRecallConfig } from './config.js';

describe('recall config', () => {
  it('defaults to DEFAULT_RECALL_CONFIG', () => {
    expect(resolveRecallConfig()).toEqual(DEFAULT_RECALL_CONFIG);
  });

  it('merges nested partial settings onto the defaults', () => {
    const config = resolveRecallConfig({ config: { minScore: 0.3, fusion: { method: 'rrf', rrfK: 30 }, rerank: { timeoutMs: 2000 } } });
    expect(config.minScore).toBe(0.3);
    expect(config.fusion).toEqual({ ...DEFAULT_RECALL_CONFIG.fusion, method: 'rrf', rrfK: 30 });
    expect(config.rerank.timeoutMs).toBe(2000);
    expect(config.rerank.weight).toBe(DEFAULT_RECALL_CONFIG.rerank.weight);
  });

  it('rejects bad values naming the field', () => {
    const bad = (config: unknown) => {
      try {
        resolveRecallConfig({ config: config as never });
      } catch (error) {
        expect(StrataError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
        return (error as Error).message;
      }
      throw new Error('expected a throw');
    };
    expect(bad({ fusion: { method: 'magic' } })).toMatch(/config\.fusion\.method/);
    expect(bad({ rerank: { weight: 2 } })).toMatch(/config\.rerank\.weight/);
    expect(bad({ unknownKey: 1 })).toMatch(/config/);
    expect(bad({ fusion: { vectorFloor: 0.5, vectorCeiling: 0.4 } })).toMatch(/vectorCeiling/);
  });

  it('the schema accepts a config-file shaped object', () => {
    expect(
      recallConfigSchema.safeParse({ fusion: { method: 'lexical-first', vectorWeight: 0.4 }, diversity: { enabled: false } }).success,
    ).toBe(true);
  });
});
