import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRerankerContract } from '../../../test/contracts/reranker-contract.js';
import { rerankScript } from '../../../test/support/embedding-scripts.js';
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-http-server.js';
import { ConfigError, ProviderCallError, StrataError } from '../../errors/index.js';
import { isAbortError } from '../../provider-utils/index.js';
import { createHttpReranker, type HttpRerankerSettings } from './index.js';
import type { RerankProvider } from './providers.js';

let server: ScriptedServer;
const KEY_ENV = 'STRATA_TEST_RERANK_KEY';

beforeAll(async () => {
  process.env[KEY_ENV] = 'rk-test';
  server = await startScriptedServer({
    routes: {
      '/jina/v1/rerank': rerankScript('results'),
      '/cohere/v2/rerank': rerankScript('results'),
      '/siliconflow/v1/rerank': rerankScript('results'),
      '/generic/v1/rerank': rerankScript('results'),
      '/voyage/v1/rerank': rerankScript('voyage'),
      '/tei/rerank': rerankScript('tei'),
      '/busy/rerank': [{ status: 503, headers: { 'retry-after-ms': '20' }, json: { error: 'overloaded' } }, rerankScript('results')],
      '/auth/rerank': { status: 403, json: { detail: 'Invalid API key' } },
      '/hang/rerank': { hang: true },
      '/bad-index/rerank': { json: { results: [{ index: 7, relevance_score: 0.5 }] } },
      '/bad-shape/rerank': { json: { results: [{ idx: 0 }] } },
    },
  });
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  await server.close();
});

const paths: Record<RerankProvider, string> = {
  jina: '/jina/v1',
  cohere: '/cohere/v2',
  siliconflow: '/siliconflow/v1',
  generic: '/generic/v1',
  voyage: '/voyage/v1',
  tei: '/tei',
};
const reranker = (provider: RerankProvider, settings: Partial<HttpRerankerSettings> = {}) =>
  createHttpReranker({
    provider,
    baseURL: `${server.url}${paths[provider]}`,
    apiKeyEnv: KEY_ENV,
    model: 'rerank-test',
    maxDocuments: 8,
    ...settings,
  });
const scenario = (path: string, settings: Partial<HttpRerankerSettings> = {}) =>
  createHttpReranker({ provider: 'generic', baseURL: `${server.url}/${path}`, model: 'rerank-test', ...settings });
const DOCS = ['the train leaves at noon', 'brew coffee with hot water'];

for (const provider of Object.keys(paths) as RerankProvider[]) {
  runRerankerContract({ name: `${provider} (scripted server)`, create: () => reranker(provider) });
}

describe('http reranker: wire shapes', () => {
  it('sends model, query, documents and top_n to Jina/Cohere/SiliconFlow with the key', async () => {
    for (const provider of ['jina', 'cohere', 'siliconflow'] as const) {
      await reranker(provider).doRerank({ query: 'coffee', documents: DOCS, topN: 1 });
      const sent = server.requestsTo(`${paths[provider]}/rerank`).at(-1);
      expect(sent?.body).toMatchObject({ model: 'rerank-test', query: 'coffee', documents: DOCS, top_n: 1 });
      expect(sent?.headers.authorization).toBe('Bearer rk-test');
    }
  });

  it('sends top_k to Voyage and texts to TEI', async () => {
    await reranker('voyage').doRerank({ query: 'coffee', documents: DOCS, topN: 1 });
    expect(server.requestsTo('/voyage/v1/rerank').at(-1)?.body).toEqual({
      query: 'coffee',
      documents: DOCS,
      model: 'rerank-test',
      top_k: 1,
    });
    await reranker('tei', { apiKeyEnv: undefined }).doRerank({ query: 'coffee', documents: DOCS, topN: 1 });
    const tei = server.requestsTo('/tei/rerank').at(-1);
    expect(tei?.body).toEqual({ query: 'coffee', texts: DOCS, raw_scores: false });
    expect(tei?.headers.authorization).toBeUndefined();
  });

  it('uses provider defaults for model and key variable', async () => {
    delete process.env.JINA_API_KEY;
    const error = await createHttpReranker({ provider: 'jina', baseURL: `${server.url}/jina/v1` })
      .doRerank({ query: 'q', documents: DOCS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('JINA_API_KEY');
    expect(createHttpReranker({ provider: 'jina' }).id).toBe('jina:jina-reranker-v3');
  });

  it('validates settings at construction', () => {
    expect(() => createHttpReranker({ provider: 'tei' })).toThrow(/needs baseURL/);
    expect(() => createHttpReranker({ provider: 'generic', baseURL: server.url })).toThrow(/needs model/);
    expect(() => createHttpReranker({ provider: 'nope' as RerankProvider })).toThrow(/Unknown rerank provider/);
  });
});

describe('http reranker: failures', () => {
  it("makes one attempt and throws a typed retryable error carrying the server's retry-after", async () => {
    const error = await scenario('busy')
      .doRerank({ query: 'q', documents: DOCS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect(error).toMatchObject({ statusCode: 503, isRetryable: true, retryAfterMs: 20, details: { statusCode: 503, retryAfterMs: 20 } });
    expect(server.requestsTo('/busy/rerank')).toHaveLength(1);
    // The next call gets the queue's next reply: nothing was retried behind the caller's back.
    const { results } = await scenario('busy').doRerank({ query: 'coffee', documents: DOCS });
    expect(results[0]?.index).toBe(1);
    expect(server.requestsTo('/busy/rerank')).toHaveLength(2);
  });

  it('maps 403 to PROVIDER_AUTH', async () => {
    const error = await scenario('auth', { apiKeyEnv: KEY_ENV })
      .doRerank({ query: 'q', documents: DOCS })
      .catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_AUTH');
    expect((error as Error).message).toContain(KEY_ENV);
  });

  it('surfaces a timeout as a ProviderCallError with code TIMEOUT', async () => {
    const error = await scenario('hang', { timeoutMs: 50 })
      .doRerank({ query: 'q', documents: DOCS })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).code).toBe('TIMEOUT');
  });

  it('rethrows a caller abort as an abort', async () => {
    const before = server.requestsTo('/hang/rerank').length;
    const controller = new AbortController();
    const pending = scenario('hang', { maxRetries: 2 })
      .doRerank({ query: 'q', documents: DOCS, abortSignal: controller.signal })
      .catch((e: unknown) => e);
    await expect.poll(() => server.requestsTo('/hang/rerank').length).toBe(before + 1);
    controller.abort();
    expect(isAbortError(await pending)).toBe(true);
    expect(server.requestsTo('/hang/rerank')).toHaveLength(before + 1);
  });

  it('rejects out-of-range indices and unexpected shapes', async () => {
    await expect(scenario('bad-index').doRerank({ query: 'q', documents: DOCS })).rejects.toThrow(/invalid result \(index 7/);
    await expect(scenario('bad-shape').doRerank({ query: 'q', documents: DOCS })).rejects.toThrow(/unexpected response shape/);
  });
});
