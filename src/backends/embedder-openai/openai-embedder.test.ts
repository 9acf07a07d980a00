import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEmbedderContract } from '../../../test/contracts/embedder-contract.js';
import { openAIEmbeddingsScript } from '../../../test/support/embedding-scripts.js';
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-http-server.js';
import { ConfigError, InvalidArgumentError, ProviderCallError, RetryError, StrataError } from '../../errors/index.js';
import { createEmbeddingService } from '../../core/embedding/embedding-service.js';
import { isAbortError } from '../../provider-utils/index.js';
import { createOpenAIEmbedder, type OpenAIEmbedderSettings } from './index.js';

const DIMS = 64;
const ok = openAIEmbeddingsScript({ dimensions: DIMS });
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({
    routes: {
      '/contract/v1/embeddings': openAIEmbeddingsScript({ dimensions: DIMS, reverse: true }),
      '/ok/v1/embeddings': ok,
      '/busy-ms/v1/embeddings': [{ status: 429, headers: { 'retry-after-ms': '40' }, json: { error: 'slow down' } }, ok],
      '/busy-s/v1/embeddings': [{ status: 429, headers: { 'retry-after': '1' }, json: { error: 'slow down' } }, ok],
      '/flaky/v1/embeddings': [{ status: 500, json: { error: 'oops' } }, ok],
      '/once/v1/embeddings': [{ status: 503, headers: { 'retry-after': '7' }, json: { error: 'overloaded' } }, ok],
      '/auth/v1/embeddings': { status: 401, json: { error: { message: 'Incorrect API key provided' } } },
      '/nomodel/v1/embeddings': { status: 404, json: { error: { message: 'The model `nope` does not exist' } } },
      '/hang/v1/embeddings': { hang: true },
      '/short/v1/embeddings': { json: { data: [{ index: 0, embedding: [1, 0] }] } },
    },
  });
});
afterAll(() => server.close());

const embedder = (scenario: string, settings: Partial<OpenAIEmbedderSettings> = {}) =>
  createOpenAIEmbedder({ baseURL: `${server.url}/${scenario}/v1/`, model: 'text-embedding-test', dimensions: DIMS, ...settings });
/** The engine's embedding service over the adapter: where retries happen. */
const service = (scenario: string, options: { maxRetries?: number; retryInitialDelayMs?: number; timeoutMs?: number } = {}) =>
  createEmbeddingService({
    embedder: embedder(scenario, { timeoutMs: options.timeoutMs }),
    maxRetries: options.maxRetries,
    retryInitialDelayMs: options.retryInitialDelayMs ?? 1,
  });
const fail = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );

runEmbedderContract({
  name: 'openai-compatible (scripted server, answers out of order)',
  create: () => embedder('contract', { batchSize: 4 }),
});

describe('openai-compatible embedder: requests', () => {
  it('sends model and input, and the key from apiKeyEnv', async () => {
    process.env.STRATA_TEST_EMBED_KEY = 'sk-test';
    await embedder('ok', { apiKeyEnv: 'STRATA_TEST_EMBED_KEY', headers: { 'x-extra': '1' } }).doEmbed({
      texts: ['a', 'b'],
      kind: 'document',
    });
    const sent = server.requestsTo('/ok/v1/embeddings').at(-1);
    expect(sent?.body).toEqual({ model: 'text-embedding-test', input: ['a', 'b'] });
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.headers['x-extra']).toBe('1');
    delete process.env.STRATA_TEST_EMBED_KEY;
  });

  it('sends no Authorization without a key setting, and fails early when the named variable is unset for a remote server', async () => {
    await embedder('ok').doEmbed({ texts: ['a'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.headers.authorization).toBeUndefined();
    let fetched = 0;
    const remote = createOpenAIEmbedder({
      baseURL: 'https://embeddings.example.com/v1',
      model: 'm',
      dimensions: DIMS,
      apiKeyEnv: 'STRATA_TEST_UNSET_KEY',
      env: {},
      fetch: async () => {
        fetched++;
        throw new Error('must not be called');
      },
    });
    const error = await fail(remote.doEmbed({ texts: ['a'], kind: 'document' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('STRATA_TEST_UNSET_KEY');
    expect(fetched).toBe(0);
  });

  it('a server on this machine (Ollama) runs without a key even when apiKeyEnv names an unset variable', async () => {
    await embedder('ok', { apiKeyEnv: 'STRATA_TEST_UNSET_KEY', env: {} }).doEmbed({ texts: ['a'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.headers.authorization).toBeUndefined();
  });

  it('sends Jina task hints and e5 prefixes by kind', async () => {
    const jina = embedder('ok', { taskHints: 'jina' });
    expect(jina.distinguishesQueries).toBe(true);
    await jina.doEmbed({ texts: ['q'], kind: 'query' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.body).toMatchObject({ task: 'retrieval.query', input: ['q'] });
    await jina.doEmbed({ texts: ['d'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.body).toMatchObject({ task: 'retrieval.passage' });
    const e5 = embedder('ok', { taskHints: 'e5' });
    await e5.doEmbed({ texts: ['q'], kind: 'query' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.body).toEqual({ model: 'text-embedding-test', input: ['query: q'] });
    await embedder('ok', { documentPrefix: 'doc: ' }).doEmbed({ texts: ['d'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.body).toMatchObject({ input: ['doc: d'] });
  });

  it('sends dimensions only when sendDimensions is set', async () => {
    await embedder('ok', { dimensions: 16, sendDimensions: true }).doEmbed({ texts: ['a'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.body).toMatchObject({ dimensions: 16 });
  });
});

describe('openai-compatible embedder: failures and retries', () => {
  it("makes one attempt: a 503 is a typed retryable error with the server's retry-after in its details", async () => {
    const error = await fail(embedder('once').doEmbed({ texts: ['a'], kind: 'document' }));
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject({ code: 'PROVIDER_CALL', isRetryable: true, statusCode: 503, details: { retryAfterMs: 7000 } });
    expect(server.requestsTo('/once/v1/embeddings')).toHaveLength(1);
  });

  it('the embedding service retries a 429 after the retry-after-ms wait', async () => {
    // A 10-minute backoff: the test only finishes in time if the header is followed.
    const vectors = await service('busy-ms', { retryInitialDelayMs: 600_000 }).embedDocuments({ texts: ['a'] });
    expect(vectors).toHaveLength(1);
    const [first, second] = server.requestsTo('/busy-ms/v1/embeddings');
    expect(server.requestsTo('/busy-ms/v1/embeddings')).toHaveLength(2);
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(35);
  });

  it('the embedding service retries a 429 after retry-after seconds', async () => {
    await service('busy-s', { retryInitialDelayMs: 600_000 }).embedDocuments({ texts: ['a'] });
    const [first, second] = server.requestsTo('/busy-s/v1/embeddings');
    expect(server.requestsTo('/busy-s/v1/embeddings')).toHaveLength(2);
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('the embedding service retries a 500 and then succeeds', async () => {
    const vectors = await service('flaky').embedDocuments({ texts: ['a', 'b'] });
    expect(vectors).toHaveLength(2);
    expect(server.requestsTo('/flaky/v1/embeddings')).toHaveLength(2);
  });

  it('does not retry a 401 and says which key to check', async () => {
    const auth = createEmbeddingService({
      embedder: embedder('auth', { apiKey: 'sk-wrong', apiKeyEnv: 'OPENAI_API_KEY' }),
      retryInitialDelayMs: 1,
    });
    const error = await fail(auth.embedDocuments({ texts: ['a'] }));
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_AUTH');
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect(server.requestsTo('/auth/v1/embeddings')).toHaveLength(1);
  });

  it('does not retry an unknown model', async () => {
    const error = await fail(service('nomodel').embedDocuments({ texts: ['a'] }));
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_MODEL_NOT_FOUND');
    expect(server.requestsTo('/nomodel/v1/embeddings')).toHaveLength(1);
  });

  it('times out each attempt; the embedding service retries timeouts', async () => {
    const before = server.requestsTo('/hang/v1/embeddings').length;
    const error = await fail(service('hang', { timeoutMs: 50, maxRetries: 1 }).embedDocuments({ texts: ['a'] }));
    expect(error).toBeInstanceOf(RetryError);
    expect(StrataError.isInstance((error as RetryError).lastError) && ((error as RetryError).lastError as StrataError).code).toBe(
      'TIMEOUT',
    );
    expect(server.requestsTo('/hang/v1/embeddings').length - before).toBe(2);
  });

  it('does not retry a caller abort', async () => {
    const before = server.requestsTo('/hang/v1/embeddings').length;
    const controller = new AbortController();
    const pending = fail(service('hang', { maxRetries: 3 }).embedDocuments({ texts: ['a'], abortSignal: controller.signal }));
    await expect.poll(() => server.requestsTo('/hang/v1/embeddings').length).toBe(before + 1);
    controller.abort();
    expect(isAbortError(await pending)).toBe(true);
    expect(server.requestsTo('/hang/v1/embeddings').length).toBe(before + 1);
  });

  it('reports a dimension mismatch with what to change', async () => {
    const error = await fail(embedder('ok', { dimensions: 32 }).doEmbed({ texts: ['a'], kind: 'document' }));
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_DIMENSION_MISMATCH');
    expect((error as Error).message).toMatch(/returned 64-dimensional vectors but dimensions is configured as 32/);
    expect((error as Error).message).toMatch(/set dimensions to 64/i);
    expect((error as Error).message).toMatch(/sendDimensions/);
  });

  it('rejects a response with the wrong number of vectors', async () => {
    const error = await fail(embedder('short', { dimensions: 2 }).doEmbed({ texts: ['a', 'b'], kind: 'document' }));
    expect((error as Error).message).toMatch(/1 embeddings for 2 texts/);
  });
});

describe('openai-compatible embedder: dimensions', () => {
  it('accepts a numeric string and environment references', async () => {
    expect(embedder('ok', { dimensions: '64' }).dimensions).toBe(64);
    process.env.STRATA_TEST_EMBED_DIM = '64';
    expect(embedder('ok', { dimensions: '${STRATA_TEST_EMBED_DIM}' }).dimensions).toBe(64);
    expect(embedder('ok', { dimensions: '$STRATA_TEST_EMBED_DIM' }).dimensions).toBe(64);
    delete process.env.STRATA_TEST_EMBED_DIM;
    expect(embedder('ok', { dimensions: '${STRATA_TEST_EMBED_DIM:-48}' }).dimensions).toBe(48);
    const { embeddings } = await embedder('ok', { dimensions: ' 64 ' }).doEmbed({ texts: ['a'], kind: 'query' });
    expect(embeddings[0]).toHaveLength(64);
  });

  it('rejects invalid values and unset references', () => {
    for (const bad of ['abc', '12.5', '-3', '0', 0, 1.5, '']) {
      expect(() => embedder('ok', { dimensions: bad })).toThrow(InvalidArgumentError);
    }
    expect(() => embedder('ok', { dimensions: '${STRATA_TEST_NOT_SET_DIM}' })).toThrow(/STRATA_TEST_NOT_SET_DIM/);
  });

  it('learns unknown dimensions from the first response', async () => {
    const unknown = embedder('ok', { dimensions: undefined });
    expect(() => unknown.dimensions).toThrow(ConfigError);
    const before = server.requestsTo('/ok/v1/embeddings').length;
    expect(await unknown.resolveDimensions()).toBe(64);
    expect(unknown.dimensions).toBe(64);
    expect(await unknown.resolveDimensions()).toBe(64);
    expect(server.requestsTo('/ok/v1/embeddings').length).toBe(before + 1);
  });
});

describe('openai-compatible embedder: known hosts', () => {
  /** Sends requests for a hosted API to the scripted server, keeping the original URL for checks. */
  function redirect(): { fetch: typeof globalThis.fetch; urls: string[] } {
    const urls: string[] = [];
    return {
      urls,
      fetch: (input, init) => {
        urls.push(String(input));
        return globalThis.fetch(`${server.url}/ok/v1/embeddings`, init);
      },
    };
  }

  it("uses the host's key variable and name, and never sends a key elsewhere", async () => {
    const jina = redirect();
    const embedder = createOpenAIEmbedder({
      baseURL: 'https://api.jina.ai/v1',
      model: 'jina-embeddings-v3',
      dimensions: DIMS,
      fetch: jina.fetch,
      env: { JINA_API_KEY: 'jk' },
    });
    expect(embedder.id).toBe('jina:jina-embeddings-v3');
    await embedder.doEmbed({ texts: ['a'], kind: 'document' });
    expect(jina.urls).toEqual(['https://api.jina.ai/v1/embeddings']);
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.headers.authorization).toBe('Bearer jk');

    const openai = createOpenAIEmbedder({
      baseURL: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      dimensions: DIMS,
      fetch: redirect().fetch,
      env: {},
    });
    const error = await fail(openai.doEmbed({ texts: ['a'], kind: 'document' }));
    expect((error as Error).message).toContain('OPENAI_API_KEY');

    const local = createOpenAIEmbedder({
      baseURL: `${server.url}/ok/v1`,
      model: 'nomic-embed-text',
      dimensions: DIMS,
      env: { OPENAI_API_KEY: 'sk-secret' },
    });
    expect(local.id).toBe('openai:nomic-embed-text');
    await local.doEmbed({ texts: ['a'], kind: 'document' });
    expect(server.requestsTo('/ok/v1/embeddings').at(-1)?.headers.authorization).toBeUndefined();
  });
});
