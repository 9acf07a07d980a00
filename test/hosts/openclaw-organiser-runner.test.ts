/**
 * The scene organiser on OpenClaw's embedded agent runner (`api.runtime.agent.runEmbeddedAgent`),
 * with no LLM of Strata's own. The stand-in runner does what OpenClaw's does (probed on 2026.9.2 and
 * 2026.9.6): it asks the plugin's tool factories with the run's context (incl. `toolBindings`), keeps
 * the tools `toolsAllow` names, fires the agent hooks, and loops model turns until a reply without tools.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layerPaths } from '../../src/core/layers/paths.js';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import { ORGANISER_TOOL_NAMES } from '../../src/hosts/openclaw/organiser-runner.js';
import type { HostLlmCompleteParams, HostLlmCompleteResult } from '../../src/hosts/openclaw/host-llm.js';
import { parseExtractionPrompt } from '../distill/helpers.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { tempHome } from '../support/run-cli.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

type Call = { name: string; arguments: Record<string, unknown> };
/** The organiser model: given the run's prompt, tool names and the results so far, the next calls (none = done). */
type OrganiserModel = (turn: { prompt: string; system: string; tools: string[]; results: string[] }) => Call[];

interface RunRecord {
  params: Record<string, unknown>;
  tools: string[];
  injected: unknown[];
}

/** OpenClaw's work admission: queued work is refused once the gateway request it was started from has finished. */
const rootWork = new AsyncLocalStorage<{ released: boolean }>();

function openClawRuntime(organiser: OrganiserModel, host: () => OpenClawHarness, gate?: Promise<void>) {
  const runs: RunRecord[] = [];
  const complete = async (params: HostLlmCompleteParams): Promise<HostLlmCompleteResult> => {
    const system = params.messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    if (!system.includes('You distill a conversation')) return { text: 'Persona: an early riser training for a marathon.' };
    await gate;
    const ids = parseExtractionPrompt(params.messages.find((m) => m.role === 'user')?.content ?? '').map((m) => m.id);
    const memories = ['The user drinks oat-milk flat whites every morning', 'The user is training for the Berlin marathon'].map((text) => ({
      text,
      category: 'fact',
      importance: 0.7,
      confidence: 0.9,
      scope: 'agent',
      temporal: 'dynamic',
      validFrom: null,
      sourceMessageIds: ids,
      keywords: [],
    }));
    return { text: JSON.stringify({ memories }) };
  };
  const runEmbeddedAgent = async (params: Record<string, unknown>) => {
    if (rootWork.getStore()?.released) throw new Error('Gateway is draining; new tasks are not accepted');
    const h = host();
    const ctx = { agentId: params.agentId as string, sessionKey: params.sessionKey as string, toolBindings: params.toolBindings };
    const allow = params.toolsAllow as string[];
    const tools = h.offeredTools(ctx).filter((t) => allow.includes(t.name));
    const injected = await h.emit('before_prompt_build', { prompt: params.prompt as string, messages: [] }, ctx);
    runs.push({ params, tools: tools.map((t) => t.name), injected });
    const signal = params.abortSignal as AbortSignal;
    const results: string[] = [];
    const messages: unknown[] = [{ role: 'user', content: params.prompt, timestamp: Date.now() }];
    for (let turn = 1; ; turn++) {
      (params.onAssistantMessageStart as () => void)();
      if (signal.aborted) return { payloads: [{ text: 'Request was aborted.', isError: true }], meta: {} };
      const calls = organiser({
        prompt: params.prompt as string,
        system: params.extraSystemPrompt as string,
        tools: tools.map((t) => t.name),
        results,
      });
      if (calls.length === 0) {
        messages.push({ role: 'assistant', content: 'Filed the memories.', timestamp: Date.now() });
        await h.emit('before_agent_finalize', { sessionId: params.sessionId as string, sessionKey: ctx.sessionKey, messages }, ctx);
        await h.emit('agent_end', { messages, success: true }, ctx);
        return { payloads: [{ text: 'Filed the memories.' }], meta: { agentMeta: { assistantTurns: turn } } };
      }
      for (const [i, call] of calls.entries()) {
        const tool = tools.find((t) => t.name === call.name);
        const out = tool
          ? await tool.execute(`call_${turn}_${i}`, call.arguments)
          : { content: [{ type: 'text', text: `unknown tool ${call.name}` }] };
        results.push(out.content.map((c) => c.text).join(''));
      }
    }
  };
  return {
    runs,
    runtime: {
      llm: { complete },
      config: { current: () => ({}) },
      agent: { runEmbeddedAgent, resolveAgentWorkspaceDir: () => '/tmp/workspace-main' },
    },
  };
}

async function sessionThatEnds(options: { organiser: OrganiserModel; maxTurns?: number }) {
  const home = await tempHome({
    embedder: { provider: 'none' },
    layers: { organizer: { everyMemories: 2, minIntervalMs: 0 }, ...(options.maxTurns ? { scenes: { maxTurns: options.maxTurns } } : {}) },
  });
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const late: { host?: OpenClawHarness } = {};
  const openclaw = openClawRuntime(options.organiser, () => late.host!);
  const host = new OpenClawHarness({ pluginConfig: { home, distill: { enabled: false } }, runtime: openclaw.runtime }).load(
    createOpenClawPlugin(),
  );
  late.host = host;
  cleanups.push(() => host.stopServices());
  const session = host.session({ agentId: 'main', sessionKey: 'agent:main:main' });
  await session.turn('Every morning I have an oat-milk flat white before my marathon training run.', { reply: 'Noted.' });
  await session.end('idle');
  return { home, host, runs: openclaw.runs };
}

const writeScene = (file: string): Call => ({
  name: 'strata_write_scene',
  arguments: { file, summary: 'Mornings', content: 'Oat-milk flat white; marathon.' },
});

describe("the scene organiser on OpenClaw's embedded agent runner", () => {
  it('runs as a helper session offered only the scene tools; its actions go through the sandbox; it is neither recalled into nor captured', async () => {
    const { home, host, runs } = await sessionThatEnds({
      organiser: ({ results }) => (results.length === 0 ? [writeScene('morning-routine.md'), writeScene('../../config.json')] : []),
    });
    await vi.waitFor(() => expect(host.logs.some((l) => /organised 2 memories of main/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    await host.stopServices();
    const paths = layerPaths({ home, agentId: 'main' });
    expect(await readFile(join(paths.scenesDir, 'morning-routine.md'), 'utf8')).toContain('Oat-milk flat white');
    expect(await readFile(join(home, 'config.json'), 'utf8')).not.toContain('marathon');
    expect(await readFile(paths.personaFile, 'utf8')).toContain('early riser');

    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.tools.sort()).toEqual([...ORGANISER_TOOL_NAMES].sort());
    expect(run.params).toMatchObject({ agentId: 'main', toolsAllow: ORGANISER_TOOL_NAMES, disableMessageTool: true });
    expect(String(run.params.sessionKey)).toMatch(/^agent:main:helper:strata-organiser-/);
    expect(String(run.params.extraSystemPrompt)).toMatch(/You organise an AI agent's long-term memories/);
    expect(run.injected).toEqual([]); // no recall block in the organiser's prompt
    // The organiser's own conversation never reaches the L0 log; the user's turn does.
    const l0 = (await readdir(join(home, 'conversations'))).filter((f) => f.endsWith('.jsonl'));
    const rows = (await Promise.all(l0.map((f) => readFile(join(home, 'conversations', f), 'utf8')))).join('');
    expect(rows).toContain('oat-milk flat white');
    expect(rows).not.toContain('Filed the memories');
    // Outside an organiser run (no binding), no agent is offered the scene tools.
    const names = host.offeredTools({ agentId: 'main', sessionKey: 'agent:main:main' }).map((t) => t.name);
    expect(names).toContain('memory_recall');
    expect(names.filter((n) => n.startsWith('strata_'))).toEqual([]);
    expect(host.offeredTools({ agentId: 'main', toolBindings: { 'strata.organiser': 'not-a-run' } }).map((t) => t.name)).not.toContain(
      'strata_write_scene',
    );
  });

  it('stops a run past maxTurns and restores the scenes folder', async () => {
    let n = 0;
    const { home, host } = await sessionThatEnds({ maxTurns: 3, organiser: () => [writeScene(`loop-${++n}.md`)] });
    await vi.waitFor(
      () => expect(host.logs.some((l) => l.level === 'warn' && /organiser for main failed.*after 3 turns/.test(l.message))).toBe(true),
      {
        timeout: 20_000,
        interval: 50,
      },
    );
    await host.stopServices();
    expect(await readdir(layerPaths({ home, agentId: 'main' }).scenesDir).catch(() => [])).toEqual([]);
  });

  it('starts the run from the service, not from the finished turn that triggered it (OpenClaw refuses work of a finished request)', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, layers: { organizer: { everyMemories: 2, minIntervalMs: 0 } } });
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    let open: () => void = () => undefined;
    const turnDone = new Promise<void>((r) => (open = r));
    const late: { host?: OpenClawHarness } = {};
    const openclaw = openClawRuntime(
      () => [],
      () => late.host!,
      turnDone,
    );
    const host = new OpenClawHarness({ pluginConfig: { home, distill: { enabled: false } }, runtime: openclaw.runtime }).load(
      createOpenClawPlugin(),
    );
    late.host = host;
    cleanups.push(() => host.stopServices());
    await host.startServices(); // the gateway starts the plugin's service outside any request
    const request = { released: false };
    await rootWork.run(request, async () => {
      const session = host.session({ agentId: 'main', sessionKey: 'agent:main:main' });
      await session.turn('Every morning I have an oat-milk flat white before my marathon training run.', { reply: 'Noted.' });
      await session.end('idle'); // distillation, then the organiser, start in the background of this request
    });
    request.released = true; // the user's turn is over
    open();
    await vi.waitFor(() => expect(host.logs.some((l) => /organis(ed|er for main failed)/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    expect(host.logs.filter((l) => /organiser for main failed/.test(l.message))).toEqual([]);
    expect(openclaw.runs).toHaveLength(1);
  });
});
