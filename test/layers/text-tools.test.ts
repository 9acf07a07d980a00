import { describe, expect, it } from 'vitest';
import {
  parseTextToolCalls,
  textToolMessages,
  withTextToolProtocol,
  TEXT_TOOL_PROTOCOL_HEADING,
} from '../../src/core/layers/text-tools.js';
import { SCENE_TOOLS } from '../../src/core/layers/sandbox.js';
import type { LlmGenerateOptions, LlmV1 } from '../../src/spec/llm.js';

describe('tool calls over a text-only model', () => {
  it('reads the calls from a bare object, a fenced block with prose around it, or an object inside prose', () => {
    const call = { tool_calls: [{ name: 'read_scene', arguments: { file: 'a.md' } }] };
    expect(parseTextToolCalls(JSON.stringify(call), '1')).toEqual({
      calls: [{ id: 'call_1_0', name: 'read_scene', arguments: { file: 'a.md' } }],
      prose: '',
    });
    const fenced = parseTextToolCalls(`Reading it first.\n\`\`\`json\n${JSON.stringify(call)}\n\`\`\`\nThen I write.`, '2');
    expect(fenced.calls.map((c) => c.name)).toEqual(['read_scene']);
    expect(fenced.prose).toBe('Reading it first.\n\nThen I write.');
    const inline = parseTextToolCalls(
      `Sure {"tool_calls":[{"name":"list_scenes","arguments":"{}"},{"name":"write_scene","arguments":{"file":"b}.md"}}]} ok`,
      '3',
    );
    expect(inline.calls).toEqual([
      { id: 'call_3_0', name: 'list_scenes', arguments: {} },
      { id: 'call_3_1', name: 'write_scene', arguments: { file: 'b}.md' } },
    ]);
    expect(inline.prose).toBe('Sure  ok');
  });

  it('treats a final answer, other JSON and malformed calls as text', () => {
    for (const text of [
      'Done: merged two scenes. [PERSONA_UPDATE_REQUEST] new job [/PERSONA_UPDATE_REQUEST]',
      '{"summary":"no tools here"}',
      '{"tool_calls":[{"arguments":{}}]}',
      '{"tool_calls": [ {"name": "x"',
    ]) {
      expect(parseTextToolCalls(text, '1')).toEqual({ calls: [], prose: text });
    }
  });

  it('describes the tools in the system prompt and replays calls and results as text turns', () => {
    const out = textToolMessages(
      [
        { role: 'system', content: 'You organise scenes.' },
        { role: 'user', content: 'Fold these memories.' },
        { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_scene', arguments: { file: 'a.md' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'read_scene', content: 'body' },
        { role: 'tool', toolCallId: 'c2', toolName: 'write_scene', content: 'refused: outside the folder', isError: true },
      ],
      SCENE_TOOLS,
    );
    expect(out[0]!.content).toMatch(new RegExp(`^You organise scenes\\.\\n\\n${TEXT_TOOL_PROTOCOL_HEADING.replace(/[()]/g, '\\$&')}`));
    for (const tool of SCENE_TOOLS) expect(out[0]!.content).toContain(`- ${tool.name}: `);
    expect(out.slice(1)).toEqual([
      { role: 'user', content: 'Fold these memories.' },
      { role: 'assistant', content: 'Reading.\n{"tool_calls":[{"id":"c1","name":"read_scene","arguments":{"file":"a.md"}}]}' },
      { role: 'user', content: 'Result of read_scene (c1):\nbody\n\nResult of write_scene (c2) [error]:\nrefused: outside the folder' },
    ]);
  });

  it('wraps only text-only models, and passes calls without tools through untouched', async () => {
    const seen: LlmGenerateOptions[] = [];
    const textOnly: LlmV1 = {
      specificationVersion: 'v1',
      provider: 'host',
      modelId: 'm',
      capabilities: { supportsJsonSchema: false, supportsTools: false },
      async doGenerate(call) {
        seen.push(call);
        return {
          text: call.tools ? 'unexpected' : '{"tool_calls":[{"name":"list_scenes","arguments":{}}]}',
          toolCalls: [],
          finishReason: 'stop',
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const native = { ...textOnly, capabilities: { supportsJsonSchema: false, supportsTools: true } };
    expect(withTextToolProtocol(native)).toBe(native);
    const llm = withTextToolProtocol(textOnly);
    expect(llm.capabilities.supportsTools).toBe(true);
    const plain = await llm.doGenerate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(plain.toolCalls).toEqual([]); // no tools asked for: the text is the answer
    const acting = await llm.doGenerate({ messages: [{ role: 'user', content: 'hi' }], tools: SCENE_TOOLS });
    expect(acting).toMatchObject({ finishReason: 'tool-calls', toolCalls: [{ name: 'list_scenes', arguments: {} }] });
    expect(seen[1]!.tools).toBeUndefined();
  });
});
