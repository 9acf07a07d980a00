import { describe, expect, it } from 'vitest';
import { describeWorkerSettings } from './diagnostics.js';
import { strataConfigSchema } from './schema.js';

const config = (raw: unknown) => strataConfigSchema.parse(raw);

describe('describeWorkerSettings (strata doctor)', () => {
  it('describes the defaults and says the workers are inactive without an LLM', () => {
    const lines = describeWorkerSettings({ config: config({}) });
    expect(lines.map((l) => l.name)).toEqual(['layers', 'summaries', 'journal']);
    expect(lines[0]!.detail).toContain('organiser automatic after 20 new memories, at most every 15 min (inactive: no LLM configured');
    expect(lines[0]!.detail).toContain('scenes <= 15 (5 backups, 24 turns, 5 min); persona every 50 memories (3 backups)');
    expect(lines[1]!.detail).toBe(
      '6000-token chunks older than 30000 tokens -> 1000-token summaries, 6 merge per level up to level 3, every 10 min (inactive: no LLM configured; set llm.provider and llm.model)',
    );
    expect(lines[2]!.detail).toContain('repeat flushes within 1 min skipped, 3 attempts, compile at most every 1 h, input <= 12000 tokens');
  });

  it('reflects the configured values and a configured LLM', () => {
    const lines = describeWorkerSettings({
      config: config({
        layers: { organizer: { auto: false }, persona: { regenerateEveryMemories: 0 } },
        journal: { dedupeWindowMs: 1500 },
        llm: { provider: 'openai', model: 'm' },
      }),
    });
    expect(lines[0]!.detail).toMatch(/^organiser manual only \(strata organize\);.*persona on request/);
    expect(lines[2]!.detail).toContain('within 1500 ms');
    expect(lines.some((l) => l.detail.includes('inactive'))).toBe(false);
  });
});
