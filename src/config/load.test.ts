import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, StorageError, StrataError } from '../errors/index.js';
import { configFromEnv, deepMerge, loadConfig, resolveHome, writeDefaultConfig } from './load.js';
import { strataConfigSchema } from './schema.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function homeWith(config: string): Promise<string> {
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.json'), config);
  return home;
}

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> {
  try {
    await loadConfig({ env: {}, ...options });
  } catch (error) {
    expect(StrataError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected loadConfig to fail');
}

describe('resolveHome', () => {
  it('prefers --home, then STRATA_HOME, then ~/.strata, always absolute', () => {
    expect(resolveHome({ home: '/a/b', env: { STRATA_HOME: '/c' } })).toBe('/a/b');
    expect(resolveHome({ env: { STRATA_HOME: '/c' } })).toBe('/c');
    expect(resolveHome({ home: '  ', env: { STRATA_HOME: '' } })).toBe(join(homedir(), '.strata'));
    expect(resolveHome({ home: '~/mem', env: {} })).toBe(join(homedir(), 'mem'));
    expect(resolveHome({ home: 'rel', env: {} })).toBe(join(process.cwd(), 'rel'));
  });
});

describe('loadConfig', () => {
  it('uses the defaults when the home directory does not exist', async () => {
    const home = join(dir, 'missing', 'home');
    const loaded = await loadConfig({ home, env: {} });
    expect(loaded).toMatchObject({ home, configPath: join(home, 'config.json'), fromFile: false });
    expect(loaded.config.embedder).toEqual({ provider: 'local' });
    expect(loaded.config.store).toEqual({ provider: 'lancedb', path: join(home, 'store') });
    expect(loaded.config.rerank.provider).toBe('none');
    expect(loaded.config.write).toEqual({ redactSecrets: true, maxChars: 8000, nearDuplicateThreshold: 0.95 });
    expect(loaded.config.scopes).toEqual({ agentGrants: {} });
    expect(loaded.config.recall.defaultLimit).toBeGreaterThan(0);
  });

  it('reads the file and resolves a relative store path against the home', async () => {
    const home = await homeWith(
      JSON.stringify({
        embedder: { provider: 'openai', model: 'nomic-embed-text', baseURL: 'http://localhost:11434/v1', dimensions: '${EMBED_DIM:-768}' },
        store: { path: 'data/lance' },
        recall: { defaultLimit: 3 },
        scopes: { agentGrants: { coder: ['project:strata', 'user:alice'] }, defaultAgent: 'coder' },
      }),
    );
    const { config, fromFile } = await loadConfig({ home, env: {} });
    expect(fromFile).toBe(true);
    expect(config.embedder).toMatchObject({ provider: 'openai', model: 'nomic-embed-text', dimensions: '${EMBED_DIM:-768}' });
    // A self-hosted base URL gets no default key variable: a key is never sent there unless named.
    expect(config.embedder.apiKeyEnv).toBeUndefined();
    expect(config.store.path).toBe(join(home, 'data', 'lance'));
    expect(config.recall.defaultLimit).toBe(3);
    expect(config.scopes.agentGrants).toEqual({ coder: ['project:strata', 'user:alice'] });
  });

  it('defaults apiKeyEnv to OPENAI_API_KEY for the OpenAI endpoint', async () => {
    const { config } = await loadConfig({ home: dir, env: {}, overrides: { embedder: { provider: 'openai' } } });
    expect(config.embedder.apiKeyEnv).toBe('OPENAI_API_KEY');
  });

  it('names the file, line and column of a JSON syntax error', async () => {
    const home = await homeWith('{\n  "embedder": {\n    "provider": "local",\n  }\n}\n');
    const error = await loadError({ home });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.file).toBe(join(home, 'config.json'));
    expect(error.message).toContain(`${join(home, 'config.json')}:4:3: invalid JSON`);
    expect(error.message).toMatch(/trailing comma/);
  });

  it('rejects comments and non-object JSON with the file named', async () => {
    expect((await loadError({ home: await homeWith('// hi\n{}') })).message).toMatch(
      /config\.json:1:1: invalid JSON: comments are not allowed/,
    );
    await rm(join(dir, 'home'), { recursive: true });
    expect((await loadError({ home: await homeWith('[1, 2]') })).message).toMatch(/config\.json: must contain a JSON object.*not an array/);
  });

  it('treats an empty file as defaults', async () => {
    const { config, fromFile } = await loadConfig({ home: await homeWith('\uFEFF  \n'), env: {} });
    expect(fromFile).toBe(true);
    expect(config.embedder.provider).toBe('local');
  });

  it('names the file, the field path and what was expected for an invalid value', async () => {
    const home = await homeWith('{\n  "embedder": {\n    "provider": "bert"\n  }\n}');
    const error = await loadError({ home });
    expect(error.field).toBe('embedder.provider');
    expect(error.message).toContain(`${join(home, 'config.json')}:3:5: embedder.provider`);
    expect(error.message).toContain('Unknown embedder provider "bert": use local, openai, transformers, none');
  });

  it('rejects unknown keys and suggests the intended one', async () => {
    const error = await loadError({ home: await homeWith('{"embedder": {"provder": "openai"}, "recal": {}}') });
    expect(error.message).toContain('embedder.provder: unknown setting; did you mean "provider"?');
    expect(error.message).toContain('recal: unknown setting; did you mean "recall"?');
    expect(error.message).toMatch(/2 problems/);
  });

  it('lists the valid settings when nothing is close', async () => {
    const error = await loadError({ home: await homeWith('{"write": {"zzzzzzzz": 1}}') });
    expect(error.message).toMatch(/write\.zzzzzzzz: unknown setting; valid settings here: redactSecrets, maxChars, nearDuplicateThreshold/);
  });

  it.each([
    ['{"embedder": {"provider": "openai", "apiKey": "sk-abc"}}', 'embedder.apiKey'],
    ['{"rerank": {"provider": "jina", "token": "abc"}}', 'rerank.token'],
    ['{"secret": "abc"}', 'secret'],
  ])('rejects a secret in the file: %s', async (json, field) => {
    const error = await loadError({ home: await homeWith(json) });
    expect(error.field).toBe(field);
    expect(error.file).toBe(join(dir, 'home', 'config.json'));
    expect(error.message).toContain(field);
    expect(error.message).toMatch(/environment variable.*apiKeyEnv/);
    expect(error.message).not.toContain('sk-abc');
  });

  it('rejects a key pasted into apiKeyEnv', async () => {
    const error = await loadError({ home: await homeWith('{"embedder": {"provider": "openai", "apiKeyEnv": "sk-proj-abc123"}}') });
    expect(error.field).toBe('embedder.apiKeyEnv');
    expect(error.message).toMatch(/NAME of an environment variable/);
  });

  it('validates scopes in agent grants', async () => {
    const error = await loadError({ home: await homeWith('{"scopes": {"agentGrants": {"coder": ["project:ok", "nonsense"]}}}') });
    expect(error.field).toBe('scopes.agentGrants.coder.1');
    expect(error.message).toMatch(/expected a scope/);
  });

  it('reports recall settings through the recall schema', async () => {
    const error = await loadError({ home: await homeWith('{"recall": {"fusion": {"vectorFloor": 0.9, "vectorCeiling": 0.5}}}') });
    expect(error.field).toBe('recall.fusion.vectorCeiling');
  });

  it('lets environment variables win over the file', async () => {
    const home = await homeWith(
      JSON.stringify({ embedder: { provider: 'local' }, rerank: { provider: 'jina' }, write: { redactSecrets: true } }),
    );
    const env = {
      STRATA_EMBEDDER: 'openai',
      STRATA_EMBEDDER_BASE_URL: 'http://127.0.0.1:9999/v1',
      STRATA_EMBEDDER_MODEL: 'bge-m3',
      STRATA_EMBEDDER_DIMENSIONS: '1024',
      STRATA_RERANK_PROVIDER: 'tei',
      STRATA_REDACT_SECRETS: 'off',
      STRATA_RECALL_LIMIT: '12',
      STRATA_STORE_PATH: '',
    };
    const { config } = await loadConfig({ home, env });
    expect(config.embedder).toMatchObject({ provider: 'openai', baseURL: 'http://127.0.0.1:9999/v1', model: 'bge-m3', dimensions: 1024 });
    expect(config.rerank.provider).toBe('tei');
    expect(config.write.redactSecrets).toBe(false);
    expect(config.recall.defaultLimit).toBe(12);
    expect(config.store.path).toBe(join(home, 'store')); // empty env value = unset
  });

  it('applies the STRATA_LLM_* variables here, so nothing else reads the environment', async () => {
    const home = await homeWith(JSON.stringify({ llm: { provider: 'openai', model: 'from-file', baseURL: 'http://127.0.0.1:1/v1' } }));
    const env = { STRATA_LLM_PROVIDER: 'Anthropic', STRATA_LLM_MODEL: 'claude-x', STRATA_LLM_API_KEY_ENV: 'MY_KEY' };
    expect((await loadConfig({ home, env })).config.llm).toMatchObject({
      provider: 'anthropic',
      model: 'claude-x',
      apiKeyEnv: 'MY_KEY',
      baseURL: 'http://127.0.0.1:1/v1',
    });
    // Switching a configured LLM off from the environment keeps the file valid.
    expect((await loadConfig({ home, env: { STRATA_LLM_PROVIDER: 'none' } })).config.llm.provider).toBe('none');
    const error = await loadError({ home, env: { STRATA_LLM_PROVIDER: 'gemini' } });
    expect(error.message).toContain(
      'environment variable STRATA_LLM_PROVIDER (llm.provider): Unknown LLM provider "gemini": use none, openai, anthropic',
    );
  });

  it('provider sections are discriminated unions: each provider takes only its own settings', async () => {
    const { config } = await loadConfig({
      home: await homeWith(JSON.stringify({ store: { path: 'data' }, conversations: { path: 'conv' } })),
      env: {},
    });
    expect(config.store).toEqual({ provider: 'lancedb', path: join(dir, 'home', 'data') });
    expect(config.conversations).toEqual({ provider: 'lancedb', path: join(dir, 'home', 'conv') });
    expect(config.l0).toEqual({ provider: 'jsonl' });
    const local = await loadError({
      home: await homeWith(JSON.stringify({ embedder: { provider: 'local', model: 'text-embedding-3-small' } })),
    });
    expect(local.message).toMatch(/embedder.*model/);
    const store = await loadError({ home: await homeWith(JSON.stringify({ store: { provider: 'sqlite' } })) });
    expect(store.message).toContain('Unknown store provider "sqlite": use lancedb');
  });

  it('names the environment variable when its value is invalid', async () => {
    const error = await loadError({ home: dir, env: { STRATA_RECALL_LIMIT: 'many' } });
    expect(error.field).toBe('recall.defaultLimit');
    expect(error.message).toContain('environment variable STRATA_RECALL_LIMIT (recall.defaultLimit)');
    expect(error.file).toBeUndefined();
    expect(error.message).toMatch(/expected number/);
  });

  it('lets overrides win over the environment, deep-merged and validated', async () => {
    const home = await homeWith(JSON.stringify({ embedder: { provider: 'openai', model: 'from-file' }, write: { maxChars: 100 } }));
    const { config } = await loadConfig({
      home,
      env: { STRATA_EMBEDDER_MODEL: 'from-env', STRATA_EMBEDDER_BASE_URL: 'http://localhost:1/v1' },
      overrides: { embedder: { model: 'from-code' }, write: { redactSecrets: false } },
    });
    expect(config.embedder).toMatchObject({ provider: 'openai', model: 'from-code', baseURL: 'http://localhost:1/v1' });
    expect(config.write).toMatchObject({ maxChars: 100, redactSecrets: false });

    const error = await loadError({ home, overrides: { write: { maxChars: -1 } } });
    expect(error.field).toBe('write.maxChars');
    expect(error.message).toContain('overrides.write.maxChars');
  });

  it('fails clearly when the config path cannot be read', async () => {
    const home = join(dir, 'home');
    await mkdir(join(home, 'config.json'), { recursive: true }); // a directory where the file should be
    const error = await loadError({ home });
    expect(error.code).toBe('CONFIG_UNREADABLE');
    expect(error.message).toMatch(/Cannot read .*config\.json: the path is a directory/);
  });
});

describe('writeDefaultConfig', () => {
  it('creates the home and a config that loads back to the defaults', async () => {
    const home = join(dir, 'new', 'home');
    const result = await writeDefaultConfig({ home });
    expect(result).toEqual({ written: true, path: join(home, 'config.json') });
    const text = await readFile(result.path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(strataConfigSchema.safeParse(JSON.parse(text)).success).toBe(true);
    const loaded = await loadConfig({ home, env: {} });
    expect(loaded.fromFile).toBe(true);
    const defaults = (await loadConfig({ home, overrides: {}, env: { STRATA_HOME: 'unused' } })).config;
    await rm(result.path);
    expect((await loadConfig({ home, env: {} })).config).toEqual(defaults);
  });

  it('keeps an existing file unless forced', async () => {
    const home = await homeWith('{"embedder": {"provider": "none"}}');
    expect(await writeDefaultConfig({ home })).toEqual({ written: false, path: join(home, 'config.json') });
    expect(await readFile(join(home, 'config.json'), 'utf8')).toBe('{"embedder": {"provider": "none"}}');
    expect((await writeDefaultConfig({ home, force: true })).written).toBe(true);
    expect((await loadConfig({ home, env: {} })).config.embedder.provider).toBe('local');
  });

  it('fails with a StorageError naming the path when the home cannot be created', async () => {
    // Tests run as root, so permissions do not block writes; a path below a regular file does (ENOTDIR).
    const file = join(dir, 'plain-file');
    await writeFile(file, 'x');
    const home = join(file, 'sub');
    const error = await writeDefaultConfig({ home }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).message).toContain(join(home, 'config.json'));
    expect((error as StorageError).message).toMatch(/parent of this path is a file.*--home or STRATA_HOME/);
    // Reading from the same place is an error too, not silent defaults.
    expect((await loadError({ home })).code).toBe('CONFIG_UNREADABLE');
  });
});

describe('helpers', () => {
  it('deepMerge merges objects, replaces arrays and skips undefined', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3], e: undefined }, d: undefined })).toEqual({
      a: { b: 1, c: [3], e: undefined },
      d: 1,
    });
  });

  it('configFromEnv converts numbers and booleans and keeps unparseable text for validation', () => {
    const { layer, sources } = configFromEnv({ STRATA_MAX_CHARS: '500', STRATA_REDACT_SECRETS: 'maybe', STRATA_EMBEDDER: 'none' });
    expect(layer).toEqual({ write: { maxChars: 500, redactSecrets: 'maybe' }, embedder: { provider: 'none' } });
    expect(sources.get('write.maxChars')).toBe('STRATA_MAX_CHARS');
  });
});
