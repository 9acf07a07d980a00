import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../test/support/scripted-http-server.js';
import { ProviderCallError, StrataError } from '../errors/index.js';
import { postJson } from './post-json.js';
import { isAbortError } from './retry.js';

const schema = z.object({ value: z.number() });
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({
    routes: {
      '/ok': { json: { value: 7, extra: 'ignored' }, headers: { 'X-Request-Id': 'abc' } },
      '/auth': { status: 401, json: { error: { message: 'Incorrect API key provided' } } },
      '/missing': { status: 404, json: { error: 'not found' } },
      '/ollama-model': { status: 400, json: { error: 'model "nomic-embed-text" not found, try pulling it first' } },
      '/busy': { status: 429, headers: { 'retry-after': '3' }, json: { error: 'rate limited' } },
      '/boom': { status: 500, body: 'x'.repeat(5000) },
      '/bad-json': { body: '{"value": ' },
      '/bad-shape': { json: { value: 'seven' } },
      '/hang': { hang: true },
    },
  });
});
afterAll(() => server.close());

async function failure(path: string, extra: { timeoutMs?: number; abortSignal?: AbortSignal } = {}): Promise<ProviderCallError> {
  const error = await postJson({
    url: `${server.url}${path}`,
    body: { q: 1 },
    schema,
    description: 'Test API',
    authHint: 'Check TEST_API_KEY.',
    ...extra,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderCallError);
  return error as ProviderCallError;
}

describe('postJson', () => {
  it('posts JSON with headers and parses only the schema fields', async () => {
    const result = await postJson({
      url: `${server.url}/ok`,
      headers: { Authorization: 'Bearer k', 'x-skip': undefined },
      body: { q: 1 },
      schema,
    });
    expect(result.value).toEqual({ value: 7 });
    expect(result.responseHeaders['x-request-id']).toBe('abc');
    const sent = server.requestsTo('/ok')[0];
    expect(sent?.body).toEqual({ q: 1 });
    expect(sent?.headers.authorization).toBe('Bearer k');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['x-skip']).toBeUndefined();
  });

  it('maps 401 to PROVIDER_AUTH naming the hint, not retryable', async () => {
    const error = await failure('/auth');
    expect(error.code).toBe('PROVIDER_AUTH');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).toContain('TEST_API_KEY');
  });

  it('maps 404 and "model not found" bodies to PROVIDER_MODEL_NOT_FOUND', async () => {
    expect((await failure('/missing')).code).toBe('PROVIDER_MODEL_NOT_FOUND');
    const ollama = await failure('/ollama-model');
    expect(ollama.code).toBe('PROVIDER_MODEL_NOT_FOUND');
    expect(ollama.statusCode).toBe(400);
  });

  it('keeps status, lower-cased headers and a trimmed body; 429 and 5xx are retryable', async () => {
    const busy = await failure('/busy');
    expect(busy).toMatchObject({ code: 'PROVIDER_CALL', statusCode: 429, isRetryable: true });
    expect(busy.responseHeaders?.['retry-after']).toBe('3');
    const boom = await failure('/boom');
    expect(boom.isRetryable).toBe(true);
    expect(boom.responseBody?.length).toBeLessThan(2100);
  });

  it('rejects malformed and unexpected bodies without retry', async () => {
    const bad = await failure('/bad-json');
    expect(bad.isRetryable).toBe(false);
    expect(bad.message).toMatch(/not JSON/);
    const shape = await failure('/bad-shape');
    expect(shape.isRetryable).toBe(false);
    expect(shape.message).toMatch(/unexpected response shape/);
  });

  it('turns its own time limit into a retryable TIMEOUT', async () => {
    const error = await failure('/hang', { timeoutMs: 50 });
    expect(error.code).toBe('TIMEOUT');
    expect(error.isRetryable).toBe(true);
  });

  it('rethrows a caller abort as an abort', async () => {
    const controller = new AbortController();
    const before = server.requestsTo('/hang').length;
    const pending = postJson({ url: `${server.url}/hang`, body: {}, schema, abortSignal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => server.requestsTo('/hang').length).toBe(before + 1);
    controller.abort();
    const error = await pending;
    expect(isAbortError(error)).toBe(true);
    expect(StrataError.isInstance(error) && error.isRetryable).toBe(false);
  });

  it('reports an unreachable server as a retryable call error naming the URL', async () => {
    const closed = await startScriptedServer({ routes: {} });
    await closed.close();
    const error = await postJson({ url: `${closed.url}/x`, body: {}, schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderCallError);
    expect((error as ProviderCallError).isRetryable).toBe(true);
    expect((error as Error).message).toContain(closed.url);
  });
});
