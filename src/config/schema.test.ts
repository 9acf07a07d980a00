import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_FILE, findSecretKeys, knownKeysAt, strataConfigSchema } from './schema.js';

const parse = (raw: unknown) => strataConfigSchema.safeParse(raw);

describe('strataConfigSchema', () => {
  it('fills every section from {} and accepts the file strata init writes', () => {
    const empty = parse({});
    expect(empty.success && empty.data).toMatchObject({
      embedder: { provider: 'local' },
      store: { provider: 'lancedb' },
      rerank: { provider: 'none' },
      write: { redactSecrets: true, maxChars: 8000, nearDuplicateThreshold: 0.95 },
      scopes: { agentGrants: {} },
      lock: {},
    });
    const init = parse(DEFAULT_CONFIG_FILE);
    expect(init.success && empty.success && init.data).toEqual(empty.success && empty.data);
  });

  it('allows $schema and rejects unknown keys at every level', () => {
    expect(parse({ $schema: './strata.schema.json' }).success).toBe(true);
    for (const raw of [{ extra: 1 }, { store: { provider: 'lancedb', foo: 1 } }, { lock: { stale: 1 } }, { recall: { limit: 3 } }]) {
      expect(parse(raw).success).toBe(false);
    }
  });

  it('checks enums, ranges and URLs', () => {
    expect(parse({ store: { provider: 'sqlite' } }).success).toBe(false);
    expect(parse({ rerank: { provider: 'siliconflow' } }).success).toBe(true);
    expect(parse({ rerank: { provider: 'openai' } }).success).toBe(false);
    expect(parse({ embedder: { provider: 'openai', taskHints: 'nomic' } }).success).toBe(true);
    expect(parse({ embedder: { provider: 'openai', taskHints: 'bert' } }).success).toBe(false);
    expect(parse({ embedder: { baseURL: 'ftp://x' } }).success).toBe(false);
    expect(parse({ embedder: { dimensions: 0 } }).success).toBe(false);
    expect(parse({ write: { nearDuplicateThreshold: 1.5 } }).success).toBe(false);
    expect(parse({ lock: { staleMs: 500 } }).success).toBe(false);
  });

  it('defaults apiKeyEnv only for OpenAI itself', () => {
    const data = (raw: unknown) => {
      const r = parse(raw);
      if (!r.success) throw r.error;
      return r.data.embedder.apiKeyEnv;
    };
    expect(data({ embedder: { provider: 'openai' } })).toBe('OPENAI_API_KEY');
    expect(data({ embedder: { provider: 'openai', baseURL: 'https://api.openai.com/v1' } })).toBe('OPENAI_API_KEY');
    expect(data({ embedder: { provider: 'openai', baseURL: 'http://localhost:11434/v1' } })).toBeUndefined();
    expect(data({ embedder: { provider: 'openai', baseURL: 'https://api.jina.ai/v1', apiKeyEnv: 'JINA_API_KEY' } })).toBe('JINA_API_KEY');
    expect(data({ embedder: { provider: 'local' } })).toBeUndefined();
  });
});

describe('findSecretKeys / knownKeysAt', () => {
  it('finds secret-named keys anywhere except agent ids', () => {
    expect(
      findSecretKeys({ embedder: { apiKey: 'x', apiKeyEnv: 'Y' }, rerank: { Token: 'x' }, scopes: { agentGrants: { token: [] } } }),
    ).toEqual(['embedder.apiKey', 'rerank.Token']);
    expect(findSecretKeys({ embedder: { apiKeyEnv: 'OPENAI_API_KEY' } })).toEqual([]);
  });

  it('lists the keys a section accepts, through defaults and transforms', () => {
    expect(knownKeysAt([])).toEqual(expect.arrayContaining(['embedder', 'store', 'recall', 'rerank', 'write', 'scopes', 'lock']));
    expect(knownKeysAt(['embedder'])).toEqual(expect.arrayContaining(['provider', 'baseURL', 'apiKeyEnv', 'dimensions']));
    expect(knownKeysAt(['recall'])).toContain('defaultLimit');
    expect(knownKeysAt(['write', 'maxChars'])).toEqual([]);
  });
});

describe('layers, summaries and journal sections', () => {
  const data = (raw: unknown) => {
    const r = parse(raw);
    if (!r.success) throw r.error;
    return r.data;
  };

  it('defaults to the organiser constants and the documented values', () => {
    const { layers, summaries, journal } = data({});
    expect(layers).toEqual({
      scenes: { limit: 15, backups: 5, maxTurns: 24, timeoutMs: 300_000, maxMemoriesPerRun: 50 },
      persona: { regenerateEveryMemories: 50, backups: 3 },
      organizer: { auto: true, everyMemories: 20, minIntervalMs: 900_000 },
    });
    expect(summaries).toEqual({
      boundaryTokens: 30_000,
      chunkTokens: 6000,
      summaryTokens: 1000,
      mergeFanIn: 6,
      maxLevel: 3,
      intervalMs: 600_000,
    });
    expect(journal).toEqual({ dedupeWindowMs: 60_000, attempts: 3, compileMinIntervalMs: 3_600_000, maxInputTokens: 12_000 });
  });

  it('fills the rest of a section around the keys given', () => {
    const { layers, summaries } = data({ layers: { organizer: { auto: false } }, summaries: { mergeFanIn: 4 } });
    expect(layers.organizer).toEqual({ auto: false, everyMemories: 20, minIntervalMs: 900_000 });
    expect(layers.scenes.limit).toBe(15);
    expect(summaries).toMatchObject({ mergeFanIn: 4, maxLevel: 3 });
  });

  it('rejects unknown keys and out-of-range values', () => {
    for (const raw of [
      { layers: { scenes: { limt: 10 } } },
      { layers: { organiser: {} } },
      { layers: { scenes: { limit: 0 } } },
      { layers: { organizer: { everyMemories: 0 } } },
      { layers: { persona: { regenerateEveryMemories: -1 } } },
      { summaries: { maxLevel: 4 } },
      { summaries: { mergeFanIn: 1 } },
      { summaries: { chunkTokens: 0 } },
      { summaries: { intervalMs: 2.5 } },
      { journal: { attempts: 0 } },
      { journal: { dedupeWindow: 1 } },
    ]) {
      expect(parse(raw).success, JSON.stringify(raw)).toBe(false);
    }
    expect(parse({ layers: { persona: { regenerateEveryMemories: 0 } } }).success).toBe(true);
    expect(parse({ summaries: { boundaryTokens: 0, chunkTokens: 50, summaryTokens: 20, mergeFanIn: 2 } }).success).toBe(true);
  });

  it('names the new sections and their keys for "did you mean" hints', () => {
    expect(knownKeysAt([])).toEqual(expect.arrayContaining(['layers', 'summaries', 'journal']));
    expect(knownKeysAt(['layers', 'organizer'])).toEqual(['auto', 'everyMemories', 'minIntervalMs']);
    expect(knownKeysAt(['summaries'])).toContain('mergeFanIn');
    expect(knownKeysAt(['journal'])).toContain('dedupeWindowMs');
  });

  it('the file strata init writes spells the sections out', () => {
    expect(DEFAULT_CONFIG_FILE).toMatchObject({
      layers: { organizer: { auto: true } },
      summaries: { maxLevel: 3 },
      journal: { attempts: 3 },
    });
  });
});
