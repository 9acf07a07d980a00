import { describe, expect, it } from 'vitest';
import { createLlmClient } from '../../core/llm/index.js';
import { StrataError } from '../../errors/index.js';
import { createOpenClawCompletionLlm, createOpenClawHostLlm, hostLlmRuntimeOf, type HostLlmCompleteParams } from './host-llm.js';

describe('the OpenClaw host model as an LlmV1', () => {
  it('maps a chat call onto runtime.llm.complete without asking for another agent or model', async () => {
    const calls: HostLlmCompleteParams[] = [];
    const llm = createOpenClawCompletionLlm({
      runtime: {
        async complete(params) {
          calls.push(params);
          return {
            text: '{"memories":[]}',
            provider: 'scripted',
            model: 'm1',
            stopReason: 'stop',
            usage: { inputTokens: 120, outputTokens: 7 },
          };
        },
      },
    });
    const out = await llm.doGenerate({
      messages: [
        { role: 'system', content: 'You distill a conversation.' },
        { role: 'user', content: 'Conversation messages' },
        { role: 'tool', toolCallId: 't1', toolName: 'read', content: 'file body' },
      ],
      maxTokens: 500,
      temperature: 0,
    });
    expect(out).toEqual({ text: '{"memories":[]}', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 120, outputTokens: 7 } });
    expect(calls[0]).toMatchObject({ maxTokens: 500, temperature: 0, purpose: 'strata memory distillation' });
    expect(calls[0]!.messages).toEqual([
      { role: 'system', content: 'You distill a conversation.' },
      { role: 'user', content: 'Conversation messages' },
      { role: 'user', content: 'Result of read: file body' },
    ]);
    expect(Object.keys(calls[0]!)).not.toContain('agentId');
    expect(Object.keys(calls[0]!)).not.toContain('model');
    expect(llm.modelId).toBe('scripted/m1');
    expect(llm.capabilities.supportsTools).toBe(false);
  });

  it('turns host failures into typed errors: authorisation is final, transport may be retried by the client', async () => {
    let attempts = 0;
    const denied = createLlmClient({
      llm: createOpenClawHostLlm({
        runtime: {
          complete: async () => {
            attempts++;
            throw Object.assign(new Error('Plugin LLM completion cannot override the target agent.'), {
              code: 'LLM_COMPLETION_NOT_AUTHORIZED',
            });
          },
        },
      }),
      maxRetries: 3,
      initialDelayMs: 1,
    });
    const error = await denied.doGenerate({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/plugins\.entries\.strata\.config\.strata\.llm/);
    expect(attempts).toBe(1);

    attempts = 0;
    const flaky = createLlmClient({
      llm: createOpenClawHostLlm({
        runtime: {
          complete: async () => {
            if (attempts++ === 0) throw new Error('socket hang up');
            return { text: 'ok' };
          },
        },
      }),
      maxRetries: 3,
      initialDelayMs: 1,
    });
    expect((await flaky.doGenerate({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('ok');
    expect(attempts).toBe(2);
  });

  it('finds runtime.llm.complete only where the host has it (a lazy runtime that throws counts as absent)', () => {
    expect(hostLlmRuntimeOf(undefined)).toBeUndefined();
    expect(hostLlmRuntimeOf({})).toBeUndefined();
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error('runtime unavailable during cli-metadata registration');
        },
      },
    );
    expect(hostLlmRuntimeOf(throwing)).toBeUndefined();
    const runtime = { llm: { complete: async () => ({ text: '' }) } };
    expect(hostLlmRuntimeOf(runtime)).toBe(runtime.llm);
  });
});
