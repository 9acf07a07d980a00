import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnthropic } from '../../src/backends/llm-anthropic/index.js';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { createLlmClient, generateObject, LlmOutputError } from '../../src/core/llm/index.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';

let server: ScriptedLlmServer;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  await server.close();
});

const Memories = z.object({
  memories: z.array(z.object({ text: z.string().min(1), category: z.enum(['preference', 'fact']), importance: z.number().min(0).max(1) })),
});
const messages = [
  { role: 'system' as const, content: 'Extract memories.' },
  { role: 'user' as const, content: 'I prefer tea.' },
];
const good = { memories: [{ text: 'Prefers tea over coffee', category: 'preference', importance: 0.6 }] };

describe('generateObject', () => {
  it('sends the JSON schema when the endpoint enforces it and parses the reply', async () => {
    server.push({ kind: 'text', text: JSON.stringify(good), usage: { inputTokens: 30, outputTokens: 20 } });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode: 'json_schema' });
    const result = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories' });
    expect(result).toEqual({ object: good, text: JSON.stringify(good), usage: { inputTokens: 30, outputTokens: 20 }, repaired: false });
    const format = server.requests[0]?.body?.response_format as {
      type: string;
      json_schema: { name: string; schema: { properties: object } };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('memories');
    expect(Object.keys(format.json_schema.schema.properties)).toEqual(['memories']);
    // The system prompt is left as is: the schema travels in response_format.
    expect(server.requests[0]?.body?.messages).toEqual([
      { role: 'system', content: 'Extract memories.' },
      { role: 'user', content: 'I prefer tea.' },
    ]);
  });

  it('without schema support, puts the schema in the system prompt and parses fenced JSON among prose', async () => {
    server.push({
      kind: 'text',
      text: 'Sure! Here is the result:\n```json\n' + JSON.stringify(good, null, 2) + '\n```\nLet me know [if needed].',
    });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode: 'json_object' });
    const result = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories' });
    expect(result.object).toEqual(good);
    expect(result.repaired).toBe(false);
    const sent = server.requests[0]?.body?.messages as Array<{ role: string; content: string }>;
    expect(sent[0]?.content).toMatch(/^Extract memories\.\n\nReply with only a JSON value named "memories"/);
    expect(sent[0]?.content).toContain('"importance"');
    expect(server.requests[0]?.body?.response_format).toEqual({ type: 'json_object' });
  });

  it('repairs once: sends the bad output and the validation error back, and accepts the fix', async () => {
    server.push(
      {
        kind: 'text',
        text: '{"memories":[{"text":"Prefers tea","category":"likes","importance":0.6}]}',
        usage: { inputTokens: 10, outputTokens: 5 },
      },
      { kind: 'text', text: JSON.stringify(good), usage: { inputTokens: 40, outputTokens: 8 } },
    );
    const llm = createLlmClient({ llm: createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode: 'none' }) });
    const result = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories', purpose: 'test' });
    expect(result.repaired).toBe(true);
    expect(result.object).toEqual(good);
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 13 });
    const repair = server.requests[1]?.body?.messages as Array<{ role: string; content: string }>;
    expect(repair).toHaveLength(4);
    expect(repair[2]).toEqual({ role: 'assistant', content: '{"memories":[{"text":"Prefers tea","category":"likes","importance":0.6}]}' });
    expect(repair[3]?.role).toBe('user');
    expect(repair[3]?.content).toMatch(/category/);
  });

  it('repairs output that is not JSON at all', async () => {
    server.push({ kind: 'text', text: 'I could not find any memories worth keeping.' }, { kind: 'text', text: '{"memories":[]}' });
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode: 'none' });
    const result = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories' });
    expect(result.object).toEqual({ memories: [] });
    expect(result.repaired).toBe(true);
  });

  it('fails with LlmOutputError after exactly one failed repair', async () => {
    server.push(
      { kind: 'text', text: '{"memories": [' },
      { kind: 'text', text: 'still not json' },
      { kind: 'text', text: JSON.stringify(good) },
    );
    const llm = createOpenAIChat({ baseURL: server.baseURL, model: 'm', jsonMode: 'none' });
    const error = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmOutputError);
    expect((error as LlmOutputError).text).toBe('still not json');
    expect(server.requests).toHaveLength(2);
  });

  it('works through the Anthropic forced-tool path', async () => {
    process.env.STRATA_TEST_ANTHROPIC_KEY = 'k';
    const llm = createAnthropic({ baseURL: server.baseURL, model: 'claude-test', apiKeyEnv: 'STRATA_TEST_ANTHROPIC_KEY' });
    delete process.env.STRATA_TEST_ANTHROPIC_KEY;
    server.push({ kind: 'tool-calls', calls: [{ name: 'memories', arguments: good }] });
    const result = await generateObject({ llm, messages, schema: Memories, schemaName: 'memories' });
    expect(result.object).toEqual(good);
    expect(server.requests[0]?.body?.system).toBe('Extract memories.');
    expect(server.requests[0]?.body?.tool_choice).toEqual({ type: 'tool', name: 'memories' });
  });
});
