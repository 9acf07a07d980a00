import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropic } from '../../src/backends/llm-anthropic/index.js';
import type { LlmMessage } from '../../src/spec/llm.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
  process.env.STRATA_TEST_ANTHROPIC_KEY = 'ant-key';
});
afterEach(async () => {
  delete process.env.STRATA_TEST_ANTHROPIC_KEY;
  await server.close();
});

const create = (extra: { jsonMode?: 'tool' | 'none' } = {}) =>
  createAnthropic({ baseURL: server.baseURL, model: 'claude-test', apiKeyEnv: 'STRATA_TEST_ANTHROPIC_KEY', ...extra });

describe('Anthropic Messages adapter', () => {
  it('puts system text top-level, sends version and key headers, returns text and usage', async () => {
    server.push({ kind: 'text', text: 'Bonjour', usage: { inputTokens: 20, outputTokens: 2 } });
    const result = await create().doGenerate({
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.2,
    });
    expect(result).toEqual({ text: 'Bonjour', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 2 } });
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('ant-key');
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.body).toMatchObject({
      model: 'claude-test',
      system: 'Answer in French.',
      max_tokens: 4096,
      temperature: 0.2,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('round-trips tool_use and tool_result blocks', async () => {
    server.push(
      {
        kind: 'tool-calls',
        text: 'Let me look.',
        calls: [
          { id: 'toolu_a', name: 'list_scenes', arguments: {} },
          { id: 'toolu_b', name: 'read_scene', arguments: { file: 'home.md' } },
        ],
      },
      { kind: 'text', text: 'Done.' },
    );
    const llm = create();
    const tools = [
      { name: 'list_scenes', description: 'List', parameters: { type: 'object', properties: {} } },
      { name: 'read_scene', description: 'Read', parameters: { type: 'object', properties: { file: { type: 'string' } } } },
    ];
    const messages: LlmMessage[] = [{ role: 'user', content: 'Organise my scenes' }];
    const first = await llm.doGenerate({ messages, tools });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.text).toBe('Let me look.');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_a', name: 'list_scenes', arguments: {} },
      { id: 'toolu_b', name: 'read_scene', arguments: { file: 'home.md' } },
    ]);
    messages.push(
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'toolu_a', content: 'home.md' },
      { role: 'tool', toolCallId: 'toolu_b', content: 'not found', isError: true },
    );
    await llm.doGenerate({ messages, tools });
    expect(server.requests[0]?.body?.tools).toEqual([
      { name: 'list_scenes', description: 'List', input_schema: tools[0]?.parameters },
      { name: 'read_scene', description: 'Read', input_schema: tools[1]?.parameters },
    ]);
    // Both tool results travel in ONE user turn, as the API requires alternating roles.
    expect(server.requests[1]?.body?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Organise my scenes' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_a', name: 'list_scenes', input: {} },
          { type: 'tool_use', id: 'toolu_b', name: 'read_scene', input: { file: 'home.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_a', content: 'home.md' },
          { type: 'tool_result', tool_use_id: 'toolu_b', content: 'not found', is_error: true },
        ],
      },
    ]);
  });

  it('forces a tool for schema output and returns its input as the text', async () => {
    server.push({ kind: 'tool-calls', calls: [{ id: 't', name: 'memories', arguments: { items: ['a'] } }] });
    const schema = { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'] };
    const result = await create().doGenerate({
      messages: [{ role: 'user', content: 'extract' }],
      responseFormat: { type: 'json', schema, name: 'memories' },
    });
    expect(JSON.parse(result.text)).toEqual({ items: ['a'] });
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(server.requests[0]?.body?.tool_choice).toEqual({ type: 'tool', name: 'memories' });
    expect(server.requests[0]?.body?.tools).toEqual([{ name: 'memories', description: expect.any(String), input_schema: schema }]);
  });

  it('with jsonMode none, asks for JSON in the system prompt instead', async () => {
    server.push({ kind: 'text', text: '{"items":[]}' });
    const llm = create({ jsonMode: 'none' });
    expect(llm.capabilities.supportsJsonSchema).toBe(false);
    await llm.doGenerate({ messages: [{ role: 'user', content: 'extract' }], responseFormat: { type: 'json' } });
    expect(server.requests[0]?.body?.tools).toBeUndefined();
    expect(String(server.requests[0]?.body?.system)).toMatch(/only JSON/);
  });

  it('requires a key for api.anthropic.com', () => {
    expect(() => createAnthropic({ model: 'claude', apiKeyEnv: 'STRATA_TEST_NO_SUCH_KEY' })).toThrow(/STRATA_TEST_NO_SUCH_KEY/);
  });
});
