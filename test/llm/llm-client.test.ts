import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropic } from '../../src/backends/llm-anthropic/index.js';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { createLlmClient, summarizeUsage, type LlmClientOptions } from '../../src/core/llm/index.js';
import { RetryError, StrataError } from '../../src/errors/index.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';

let server: ScriptedLlmServer;
let home: string;
beforeEach(async () => {
  server = await startScriptedLlmServer();
  home = await mkdtemp(join(tmpdir(), 'strata-llm-'));
});
afterEach(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
});

const hi = { messages: [{ role: 'user' as const, content: 'hi' }] };

function client(options: Partial<LlmClientOptions> = {}) {
  // A huge backoff: a test passes only if the server's retry-after is honoured (or no wait happens).
  return createLlmClient({
    llm: createOpenAIChat({ baseURL: server.baseURL, model: 'test-model' }),
    initialDelayMs: 5,
    ...options,
  });
}

describe('LLM client: retries, faults, limits, usage', () => {
  it('rides out a 429 storm, honouring retry-after, then succeeds (both APIs)', async () => {
    const storm = (n: number) =>
      Array.from({ length: n }, () => ({
        kind: 'status' as const,
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error: { message: 'slow down' } },
      }));
    server.push(...storm(3), { kind: 'text', text: 'finally' }, ...storm(2), { kind: 'text', text: 'anthropic too' });
    // With initialDelayMs at 10 minutes, only an honoured retry-after of 0 s lets this finish.
    const slowBackoff = { initialDelayMs: 600_000, maxRetries: 4 };
    const openai = client(slowBackoff);
    const result = await openai.doGenerate(hi);
    expect(result.text).toBe('finally');
    expect(server.requests).toHaveLength(4);

    process.env.STRATA_TEST_ANTHROPIC_KEY = 'k';
    const anthropic = createLlmClient({
      llm: createAnthropic({ baseURL: server.baseURL, model: 'claude-test', apiKeyEnv: 'STRATA_TEST_ANTHROPIC_KEY' }),
      ...slowBackoff,
    });
    delete process.env.STRATA_TEST_ANTHROPIC_KEY;
    expect((await anthropic.doGenerate(hi)).text).toBe('anthropic too');
    expect(server.requests.map((r) => r.api)).toEqual(['openai', 'openai', 'openai', 'openai', 'anthropic', 'anthropic', 'anthropic']);
  });

  it('gives up after maxRetries with a RetryError holding every attempt', async () => {
    server.push(...Array.from({ length: 5 }, () => ({ kind: 'status' as const, status: 429, headers: { 'retry-after-ms': '1' } })));
    const error = await client({ maxRetries: 2 })
      .doGenerate(hi)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryError);
    expect((error as RetryError).errors).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 500 and returns the later success', async () => {
    server.push({ kind: 'status', status: 500 }, { kind: 'status', status: 503 }, { kind: 'text', text: 'ok now' });
    expect((await client().doGenerate(hi)).text).toBe('ok now');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401 and says which env var to check', async () => {
    server.push({ kind: 'status', status: 401, body: { error: { message: 'invalid api key' } } }, { kind: 'text', text: 'never' });
    const error = await client()
      .doGenerate(hi)
      .catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('PROVIDER_AUTH');
    expect((error as Error).message).toMatch(/OPENAI_API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hanging server per attempt, retrying once, then fails with TIMEOUT', async () => {
    server.push({ kind: 'hang' }, { kind: 'hang' });
    const error = await client({ timeoutMs: 150, maxRetries: 1 })
      .doGenerate(hi)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryError);
    const last = (error as RetryError).lastError;
    expect(StrataError.isInstance(last) && last.code).toBe('TIMEOUT');
    expect(server.requests).toHaveLength(2);
  });

  it('stops at once on a caller abort, without retrying', async () => {
    server.push({ kind: 'hang' }, { kind: 'text', text: 'never' });
    const controller = new AbortController();
    const pending = client({ maxRetries: 3 }).doGenerate({ ...hi, abortSignal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(StrataError.isInstance(error) ? error.code : (error as Error).name).toMatch(/ABORTED|AbortError/);
    expect(server.requests).toHaveLength(1);
  });

  it('never has more calls in flight than maxConcurrency', async () => {
    server.push(...Array.from({ length: 8 }, (_, i) => ({ kind: 'text' as const, text: `r${i}`, delayMs: 40 })));
    const limited = client({ maxConcurrency: 3 });
    const results = await Promise.all(Array.from({ length: 8 }, () => limited.doGenerate(hi)));
    expect(results).toHaveLength(8);
    expect(server.maxInFlight).toBe(3);
  });

  it('drops a call aborted while it waits for a concurrency slot, without sending it', async () => {
    server.push({ kind: 'hang' }, { kind: 'text', text: 'never sent' });
    const single = client({ maxConcurrency: 1, maxRetries: 0 });
    const first = new AbortController();
    const second = new AbortController();
    const running = single.doGenerate({ ...hi, abortSignal: first.signal }).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const waiting = single.doGenerate({ ...hi, abortSignal: second.signal }).catch((e: unknown) => e);
    second.abort();
    expect(StrataError.isInstance(await waiting) && ((await waiting) as StrataError).code).toBe('ABORTED');
    first.abort();
    await running;
    expect(server.requests).toHaveLength(1);
  });

  it('records tokens, cost, latency, attempts and purpose per call, and sums them', async () => {
    server.push(
      { kind: 'text', text: 'a', usage: { inputTokens: 1000, outputTokens: 200 } },
      { kind: 'status', status: 500 },
      { kind: 'text', text: 'b', usage: { inputTokens: 500, outputTokens: 100 } },
      { kind: 'status', status: 400, body: { error: { message: 'bad request' } } },
    );
    const logged = client({
      usageLog: { home },
      prices: { 'test-model': { inputPerMillion: 2, outputPerMillion: 10 } },
      now: () => new Date('2026-11-21T10:00:00Z'),
    });
    await logged.doGenerate({ ...hi, purpose: 'distill.extract' });
    await logged.doGenerate({ ...hi, purpose: 'distill.reconcile' });
    await expect(logged.doGenerate({ ...hi, purpose: 'distill.reconcile' })).rejects.toThrow(/400/);

    const lines = (await readFile(join(home, 'usage', 'llm-2026-11.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      provider: 'openai-compatible',
      model: 'test-model',
      purpose: 'distill.extract',
      ok: true,
      inputTokens: 1000,
      outputTokens: 200,
      attempts: 1,
    });
    expect(lines[0].costUsd).toBeCloseTo(0.004, 10);
    expect(lines[1]).toMatchObject({ purpose: 'distill.reconcile', ok: true, attempts: 2 });
    expect(lines[2]).toMatchObject({ ok: false, attempts: 1, errorCode: 'PROVIDER_CALL' });
    expect(typeof lines[0].latencyMs).toBe('number');

    const summary = await summarizeUsage({ home });
    expect(summary).toMatchObject({ calls: 3, failedCalls: 1, inputTokens: 1500, outputTokens: 300, unpricedCalls: 0 });
    expect(summary.costUsd).toBeCloseTo(0.006, 10);
    expect(summary.byPurpose['distill.reconcile']?.calls).toBe(2);
    expect(summary.byModel['openai-compatible:test-model']?.inputTokens).toBe(1500);
    expect(Object.keys(summary.byMonth)).toEqual(['2026-11']);
  });

  it('summarises an empty home as zero and skips a torn last line', async () => {
    expect((await summarizeUsage({ home })).calls).toBe(0);
    server.push({ kind: 'text', text: 'a' });
    const logged = client({ usageLog: { home }, now: () => new Date('2026-10-01T00:00:00Z') });
    await logged.doGenerate(hi);
    const { appendFile } = await import('node:fs/promises');
    await appendFile(join(home, 'usage', 'llm-2026-10.jsonl'), '{"at":"2026-10-01T00:00:01Z","inputTok');
    const summary = await summarizeUsage({ home });
    expect(summary.calls).toBe(1);
    expect(summary.unpricedCalls).toBe(1);
  });
});
