/**
 * The scene organiser on OpenClaw's own agent runtime: `api.runtime.agent.runEmbeddedAgent` runs
 * the organiser as a helper session of the agent, on the model and credentials OpenClaw has for it
 * (seed 001's runner). The scene tools are this plugin's tools, offered to that run only: each tool
 * factory answers only a run whose `toolBindings` carry the id of an organiser run in progress in
 * this process, and `toolsAllow` keeps OpenClaw's own tools away from the model. Every call still
 * goes through the organiser's sandbox (`execute`); the run is bounded by model turns (counted as
 * assistant messages start, the run is aborted past `maxTurns`), by calls, and by `timeoutMs`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { AgentLoopResult, AgentRunner, AgentRunOptions } from '../../core/layers/agent-loop.js';
import { SCENE_TOOLS, type ToolOutcome } from '../../core/layers/sandbox.js';
import { StrataError } from '../../errors/index.js';
import type { LlmToolCall } from '../../spec/llm.js';
import type { ToolFactory, ToolFactoryContext } from './types.js';

/** The `toolBindings` key naming the organiser run a tool call belongs to. */
export const ORGANISER_BINDING = 'strata.organiser';
const TOOL_PREFIX = 'strata_';
export const ORGANISER_TOOL_NAMES = SCENE_TOOLS.map((t) => `${TOOL_PREFIX}${t.name}`);
/** Tool calls per model turn, as in the organiser's own loop. */
const MAX_CALLS_PER_TURN = 16;
const SESSION_MARK = ':helper:strata-organiser-';

/** Whether a hook's session is an organiser run (Strata's hooks leave those alone: no recall, no capture). */
export function isOrganiserSession(sessionKey: string | undefined): boolean {
  return typeof sessionKey === 'string' && sessionKey.includes(SESSION_MARK);
}

interface ActiveRun {
  execute(call: LlmToolCall): Promise<ToolOutcome>;
}

const RUNS = Symbol.for('strata.openclaw.organiser-runs.v1');

/** Runs in progress in this process, shared by every registration (module copies included). */
function activeRuns(): Map<string, ActiveRun> {
  const holder = globalThis as { [RUNS]?: Map<string, ActiveRun> };
  return (holder[RUNS] ??= new Map());
}

function bindingOf(ctx: ToolFactoryContext | undefined): string | undefined {
  const bindings = ctx?.toolBindings as Record<string, unknown> | undefined;
  const id = bindings?.[ORGANISER_BINDING];
  return typeof id === 'string' ? id : undefined;
}

/** The scene tools as OpenClaw tool factories: present only inside an organiser run of this process. */
export function organiserToolFactories(): Array<{ name: string; factory: ToolFactory }> {
  return SCENE_TOOLS.map((tool) => {
    const name = `${TOOL_PREFIX}${tool.name}`;
    const factory: ToolFactory = (ctx) => {
      const runId = bindingOf(ctx);
      if (!runId || !activeRuns().has(runId)) return null;
      return {
        name,
        label: name,
        description: tool.description,
        parameters: tool.parameters,
        async execute(toolCallId, params) {
          const run = activeRuns().get(runId);
          const args = params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
          const outcome = run
            ? await run.execute({ id: toolCallId, name: tool.name, arguments: args })
            : { content: 'refused: this organiser run has ended.', isError: true };
          return {
            content: [{ type: 'text', text: outcome.isError ? `error: ${outcome.content}` : outcome.content }],
            details: { isError: outcome.isError },
          };
        },
      };
    };
    return { name, factory };
  });
}

const SERVICE_CONTEXT = Symbol.for('strata.openclaw.service-context.v1');

/**
 * Remembers the async context of the plugin service's start (outside any gateway request). OpenClaw
 * admits queued work against the request it was started from (AsyncLocalStorage): the organiser is
 * started by a capture inside a user's turn, and once that turn has finished OpenClaw refuses the
 * run ("Gateway is draining; new tasks are not accepted"). Organiser runs start from the service's
 * context instead, as background work independent of any turn. Without a service (`agent --local`)
 * they start where they are.
 */
export function rememberServiceContext(): void {
  (globalThis as { [SERVICE_CONTEXT]?: unknown })[SERVICE_CONTEXT] = AsyncLocalStorage.snapshot();
}

function inServiceContext<T>(fn: () => T): T {
  const run = (globalThis as { [SERVICE_CONTEXT]?: <R>(fn: () => R) => R })[SERVICE_CONTEXT];
  return run ? run(fn) : fn();
}

/** `api.runtime.agent`'s slice the runner uses (OpenClaw 2026.9: `runEmbeddedAgent`, `resolveAgentWorkspaceDir`). */
export interface EmbeddedAgentRuntime {
  agent: {
    runEmbeddedAgent(params: Record<string, unknown>): Promise<EmbeddedRunResult>;
    resolveAgentWorkspaceDir(config: unknown, agentId: string): string;
  };
  config?: { current?: () => unknown };
}

interface EmbeddedRunResult {
  payloads?: Array<{ text?: string; isError?: boolean }>;
  meta?: { error?: { message?: string } | string; agentMeta?: { assistantTurns?: number } };
}

/** The host's embedded runner when this OpenClaw has one (a lazy runtime that throws counts as absent). */
export function embeddedAgentRuntimeOf(runtime: unknown): EmbeddedAgentRuntime | undefined {
  try {
    const agent = (runtime as { agent?: Record<string, unknown> } | undefined)?.agent;
    if (typeof agent?.runEmbeddedAgent !== 'function' || typeof agent.resolveAgentWorkspaceDir !== 'function') return undefined;
    return runtime as EmbeddedAgentRuntime;
  } catch {
    return undefined;
  }
}

export function createOpenClawOrganiserRunner(options: { runtime: EmbeddedAgentRuntime }): AgentRunner {
  const { runtime } = options;
  return {
    async run(o: AgentRunOptions): Promise<AgentLoopResult> {
      const runId = `strata-organiser-${randomUUID()}`;
      const stop = new AbortController();
      const signal = o.abortSignal ? AbortSignal.any([o.abortSignal, stop.signal]) : stop.signal;
      const maxCalls = o.maxTurns * MAX_CALLS_PER_TURN;
      let turns = 0;
      let toolCalls = 0;
      activeRuns().set(runId, {
        async execute(call) {
          toolCalls++;
          if (toolCalls > maxCalls) return { content: `refused: at most ${maxCalls} tool calls per organiser run.`, isError: true };
          return o.execute(call);
        },
      });
      let result: EmbeddedRunResult;
      try {
        const config = runtime.config?.current?.();
        result = await inServiceContext(() =>
          runtime.agent.runEmbeddedAgent({
            runId,
            sessionId: runId,
            sessionKey: `agent:${o.agentId}${SESSION_MARK}${runId}`,
            agentId: o.agentId,
            workspaceDir: runtime.agent.resolveAgentWorkspaceDir(config, o.agentId),
            prompt: o.prompt,
            extraSystemPrompt: o.system,
            toolsAllow: ORGANISER_TOOL_NAMES,
            toolBindings: { [ORGANISER_BINDING]: runId },
            disableMessageTool: true,
            bootstrapContextMode: 'lightweight',
            disableTrajectory: true,
            timeoutMs: o.timeoutMs,
            abortSignal: signal,
            onAssistantMessageStart: () => {
              if (++turns > o.maxTurns) stop.abort();
            },
          }),
        );
      } catch (error) {
        throw failure(o, error, stop.signal.aborted);
      } finally {
        activeRuns().delete(runId);
      }
      if (o.abortSignal?.aborted || stop.signal.aborted) throw failure(o, undefined, stop.signal.aborted);
      const payloads = result.payloads ?? [];
      const error =
        payloads.find((p) => p.isError)?.text ?? (typeof result.meta?.error === 'string' ? result.meta.error : result.meta?.error?.message);
      if (error) {
        throw new StrataError({ code: 'PROVIDER_CALL', message: `OpenClaw's agent run for the ${o.purpose} failed: ${error}` });
      }
      return {
        text: payloads
          .map((p) => p.text ?? '')
          .filter(Boolean)
          .join('\n'),
        turns: result.meta?.agentMeta?.assistantTurns ?? turns,
        toolCalls,
      };
    },
  };
}

function failure(o: AgentRunOptions, cause: unknown, overTurns: boolean): StrataError {
  if (overTurns) {
    return new StrataError({
      code: 'TIMEOUT',
      message: `The ${o.purpose} agent was still calling tools after ${o.maxTurns} turns; raise maxTurns or give it fewer memories per run.`,
      cause,
    });
  }
  if (o.abortSignal?.aborted) return new StrataError({ code: 'ABORTED', message: `The ${o.purpose} run was aborted.`, cause });
  return new StrataError({
    code: 'PROVIDER_CALL',
    message: `OpenClaw's agent run for the ${o.purpose} failed: ${(cause as Error)?.message ?? String(cause)}`,
    cause,
  });
}
