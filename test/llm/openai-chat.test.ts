import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { StrataError } from '../../src/errors/index.js';
import type { LlmMessage } from '../../src/spec/llm.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  await server.close();
});

describe('OpenAI-compatible chat adapter', () => {
  it('sends messages, model and options, and returns text with usage', async () => {
    server.push({ kind: 'text', text: 'Hello there', usage: { inputTokens: 12, outputTokens: 3 } });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'qwen2.5:7b', headers: { 'x-extra': 'yes' } });
    const result = await llm.doGenerate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      maxTokens: 50,
      temperature: 0,
    });
    expect(result).toEqual({ text: 'Hello there', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 3 } });
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['x-extra']).toBe('yes');
    expect(request?.headers.authorization).toBeUndefined(); // local server, no key configured
    expect(request?.body).toMatchObject({
      model: 'qwen2.5:7b',
      max_tokens: 50,
      temperature: 0,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    });
    expect(request?.body?.response_format).toBeUndefined();
  });

  it('sends the API key from the configured env var as a bearer token', async () => {
    process.env.STRATA_TEST_LLM_KEY = 'sk-test-123';
    try {
      server.push({ kind: 'text', text: 'ok' });
      const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', apiKeyEnv: 'STRATA_TEST_LLM_KEY' });
      await llm.doGenerate({ messages: [{ role: 'user', content: 'hi' }] });
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test-123');
    } finally {
      delete process.env.STRATA_TEST_LLM_KEY;
    }
  });

  it('fails at construction when a named key env var is missing (remote server)', () => {
    expect(() => createOpenAIChat({ baseURL: 'https://llm.example.com/v1', model: 'm', apiKeyEnv: 'STRATA_TEST_MISSING_KEY' })).toThrow(
      /STRATA_TEST_MISSING_KEY/,
    );
  });

  it('a server on this machine (Ollama) needs no key even when apiKeyEnv names an unset variable', () => {
    expect(() => createOpenAIChat({ baseURL: server.baseURL, model: 'm', apiKeyEnv: 'STRATA_TEST_MISSING_KEY' })).not.toThrow();
  });

  it('maps response formats per jsonMode', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    server.push(...Array.from({ length: 3 }, () => ({ kind: 'text' as const, text: '{"a":1}' })));
    for (const jsonMode of ['json_schema', 'json_object', 'none'] as const) {
      const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode });
      expect(llm.capabilities.supportsJsonSchema).toBe(jsonMode === 'json_schema');
      await llm.doGenerate({
        messages: [{ role: 'user', content: 'json please' }],
        responseFormat: { type: 'json', schema, name: 'my schema' },
      });
    }
    expect(server.requests[0]?.body?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'my_schema', schema, strict: false },
    });
    expect(server.requests[1]?.body?.response_format).toEqual({ type: 'json_object' });
    expect(server.requests[2]?.body?.response_format).toBeUndefined();
  });

  it('round-trips tool calls: definitions out, parsed calls back, results in', async () => {
    server.push(
      { kind: 'tool-calls', calls: [{ id: 'call_1', name: 'read_scene', arguments: { file: 'work.md' } }] },
      { kind: 'text', text: 'The scene says hi.' },
    );
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm' });
    const tools = [
      { name: 'read_scene', description: 'Read a scene file', parameters: { type: 'object', properties: { file: { type: 'string' } } } },
    ];
    const messages: LlmMessage[] = [{ role: 'user', content: 'What does work.md say?' }];
    const first = await llm.doGenerate({ messages, tools });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.toolCalls).toEqual([{ id: 'call_1', name: 'read_scene', arguments: { file: 'work.md' } }]);
    messages.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls });
    messages.push({ role: 'tool', toolCallId: 'call_1', toolName: 'read_scene', content: 'hi' });
    const second = await llm.doGenerate({ messages, tools });
    expect(second.text).toBe('The scene says hi.');

    expect(server.requests[0]?.body?.tools).toEqual([
      { type: 'function', function: { name: 'read_scene', description: 'Read a scene file', parameters: tools[0]?.parameters } },
    ]);
    expect(server.requests[1]?.body?.messages).toEqual([
      { role: 'user', content: 'What does work.md say?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_scene', arguments: '{"file":"work.md"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'hi' },
    ]);
  });

  it('reports tool arguments that are not JSON as a retryable provider error', async () => {
    server.push({ kind: 'tool-calls', calls: [{ name: 'x', arguments: '{"broken": ' }] });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm' });
    const error = await llm.doGenerate({ messages: [{ role: 'user', content: 'go' }] }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.isRetryable).toBe(true);
    expect((error as Error).message).toMatch(/not JSON/);
  });

  it('maps a 200 body that is not JSON to a provider error naming the base URL problem', async () => {
    server.push({ kind: 'raw', body: '<html>proxy error</html>' });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm' });
    await expect(llm.doGenerate({ messages: [{ role: 'user', content: 'go' }] })).rejects.toMatchObject({ code: 'PROVIDER_CALL' });
  });

  it('labels the provider from the base URL', () => {
    expect(createOpenAIChat({ baseURL: 'http://localhost:11434/v1', model: 'llama3' }).provider).toBe('ollama');
    expect(createOpenAIChat({ baseURL: 'https://openrouter.ai/api/v1', model: 'x' }).provider).toBe('openrouter');
  });
});
