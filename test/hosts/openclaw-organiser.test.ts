/**
 * The scene organiser inside OpenClaw with no LLM of Strata's own: distillation and the organiser
 * both run on OpenClaw's model through `api.runtime.llm.complete`, which has no tool calls, so the
 * organiser's actions arrive as JSON in the text (core/layers/text-tools.ts) and run through the
 * same sandboxed scene tools.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layerPaths } from '../../src/core/layers/paths.js';
import { TEXT_TOOL_PROTOCOL_HEADING } from '../../src/core/layers/text-tools.js';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import type { HostLlmCompleteParams, HostLlmCompleteResult } from '../../src/hosts/openclaw/host-llm.js';
import { parseExtractionPrompt } from '../distill/helpers.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { tempHome } from '../support/run-cli.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const systemOf = (p: HostLlmCompleteParams) =>
  p.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');

/** OpenClaw's `runtime.llm.complete` answering as a model would: text only, whatever the request. */
function hostModel(options: { escape?: boolean } = {}) {
  const calls: HostLlmCompleteParams[] = [];
  const complete = async (params: HostLlmCompleteParams): Promise<HostLlmCompleteResult> => {
    calls.push(params);
    const system = systemOf(params);
    const lastUser = params.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    if (system.includes('You distill a conversation')) {
      const ids = parseExtractionPrompt(params.messages.find((m) => m.role === 'user')?.content ?? '').map((m) => m.id);
      const memories = [
        { text: 'The user drinks oat-milk flat whites every morning', category: 'preference' },
        { text: 'The user is training for the Berlin marathon in September', category: 'fact' },
      ].map((m) => ({
        ...m,
        importance: 0.7,
        confidence: 0.9,
        scope: 'agent',
        temporal: 'dynamic',
        validFrom: null,
        sourceMessageIds: ids,
        keywords: [],
      }));
      return { text: JSON.stringify({ memories }), provider: 'scripted', model: 'm1', stopReason: 'stop' };
    }
    if (system.includes(TEXT_TOOL_PROTOCOL_HEADING)) {
      if (lastUser.startsWith('Result of ')) return { text: 'Filed both memories under a morning-routine scene.', stopReason: 'stop' };
      const calls = [
        {
          name: 'write_scene',
          arguments: { file: 'morning-routine.md', summary: 'Coffee and training', content: 'Oat-milk flat white; marathon training.' },
        },
        ...(options.escape ? [{ name: 'write_scene', arguments: { file: '../../config.json', summary: 'x', content: 'pwned' } }] : []),
      ];
      return { text: `I will file them now.\n\`\`\`json\n${JSON.stringify({ tool_calls: calls })}\n\`\`\``, stopReason: 'stop' };
    }
    return { text: 'Persona: an early riser training for a marathon.', stopReason: 'stop' };
  };
  return { calls, runtime: { llm: { complete } } };
}

async function sessionThatEnds(runtime: unknown, sessionKey: string): Promise<{ home: string; host: OpenClawHarness }> {
  const home = await tempHome({ embedder: { provider: 'none' }, layers: { organizer: { everyMemories: 2, minIntervalMs: 0 } } });
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const host = new OpenClawHarness({ pluginConfig: { home, autoRecall: false, distill: { enabled: false } }, runtime }).load(
    createOpenClawPlugin(),
  );
  cleanups.push(() => host.stopServices());
  const session = host.session({ agentId: 'main', sessionKey });
  await session.turn('Every morning I have an oat-milk flat white before my marathon training run.', { reply: 'Noted.' });
  await session.end('idle');
  return { home, host };
}

describe("the scene organiser on OpenClaw's own model (no Strata llm)", () => {
  it('organises through runtime.llm.complete: the model answers with JSON actions and a scene file appears', async () => {
    const model = hostModel();
    const { home, host } = await sessionThatEnds(model.runtime, 's-host-organise');
    await vi.waitFor(() => expect(host.logs.some((l) => l.level === 'info' && /organised 2 memories of main/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    await host.stopServices();
    const paths = layerPaths({ home, agentId: 'main' });
    expect(await readFile(join(paths.scenesDir, 'morning-routine.md'), 'utf8')).toContain('Oat-milk flat white');
    expect(await readFile(paths.personaFile, 'utf8')).toContain('early riser');
    // The organiser's requests described the scene tools in text and carried the results back as text.
    const organiser = model.calls.filter((c) => systemOf(c).includes(TEXT_TOOL_PROTOCOL_HEADING));
    expect(organiser).toHaveLength(2);
    expect(systemOf(organiser[0]!)).toMatch(/- write_scene: /);
    expect(organiser[1]!.messages.at(-1)?.content).toMatch(/^Result of write_scene \(call_\d+_0\)/);
  });

  it('keeps the sandbox: an action outside the scenes folder is refused and nothing else is written', async () => {
    const model = hostModel({ escape: true });
    const { home, host } = await sessionThatEnds(model.runtime, 's-host-escape');
    await vi.waitFor(() => expect(host.logs.some((l) => /organised 2 memories of main/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    await host.stopServices();
    const paths = layerPaths({ home, agentId: 'main' });
    expect(await readdir(paths.scenesDir)).toContain('morning-routine.md');
    expect(await readFile(join(home, 'config.json'), 'utf8')).not.toContain('pwned');
    const organiser = model.calls.filter((c) => systemOf(c).includes(TEXT_TOOL_PROTOCOL_HEADING));
    expect(organiser[1]!.messages.at(-1)?.content).toMatch(/Result of write_scene \(call_\d+_1\) \[error\]/);
  });

  it('with no model configured in OpenClaw nothing breaks: the turn is captured, distillation and the organiser report and wait', async () => {
    const runtime = {
      llm: {
        complete: async () => {
          throw new Error('No model configured for agent main.');
        },
      },
    };
    const { home, host } = await sessionThatEnds(runtime, 's-no-model');
    // The model call fails; the messages stay undistilled for a later run, and no organiser is due.
    await vi.waitFor(() => expect(host.logs.some((l) => /distilled 0 messages into 0 memories/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    await host.stopServices();
    const log = (await readdir(join(home, 'conversations'))).filter((f) => f.endsWith('.jsonl'));
    expect(log.length).toBeGreaterThan(0);
    expect(await readdir(layerPaths({ home, agentId: 'main' }).scenesDir).catch(() => [])).toEqual([]);
    expect(host.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
