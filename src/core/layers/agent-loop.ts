/**
 * A bounded tool-calling loop: ask the model, run the tool calls it makes, feed the results back,
 * until it answers without tools. Bounded by turns and by wall time (one deadline for the whole
 * loop, threaded into every LLM call as an abort signal).
 */
import { StrataError } from '../../errors/index.js';
import type { LlmClientGenerateOptions } from '../llm/index.js';
import type { LlmMessage, LlmToolCall, LlmToolDefinition, LlmV1 } from '../../spec/llm.js';
import type { ToolOutcome } from './sandbox.js';

export interface AgentLoopResult {
  /** Every text the model produced, joined (the out-of-band signals may appear in any turn). */
  text: string;
  turns: number;
  toolCalls: number;
}

/** Huge arguments (a refused 50 MB write) are not echoed back in every later request. */
const MAX_ECHO_CHARS = 100_000;
function trimEcho(call: LlmToolCall): LlmToolCall {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.arguments)) {
    args[key] = typeof value === 'string' && value.length > MAX_ECHO_CHARS ? `[omitted: ${value.length} characters]` : value;
  }
  return { ...call, arguments: args };
}

export async function runAgentLoop(options: {
  llm: LlmV1;
  messages: LlmMessage[];
  tools: LlmToolDefinition[];
  execute: (call: LlmToolCall) => Promise<ToolOutcome>;
  maxTurns: number;
  timeoutMs: number;
  purpose: string;
  abortSignal?: AbortSignal;
  /** Tool calls executed per model turn. Default 16. */
  maxCallsPerTurn?: number;
}): Promise<AgentLoopResult> {
  const maxCallsPerTurn = options.maxCallsPerTurn ?? 16;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, deadline]) : deadline;
  const messages = [...options.messages];
  const texts: string[] = [];
  let toolCalls = 0;
  const timedOut = (cause?: unknown) =>
    new StrataError({
      code: 'TIMEOUT',
      message: `The ${options.purpose} agent did not finish within ${options.timeoutMs} ms; raise its timeout or give it fewer memories per run.`,
      cause,
    });

  for (let turn = 1; turn <= options.maxTurns; turn++) {
    if (options.abortSignal?.aborted) throw new StrataError({ code: 'ABORTED', message: `The ${options.purpose} run was aborted.` });
    if (deadline.aborted) throw timedOut();
    const request: LlmClientGenerateOptions = {
      messages,
      tools: options.tools,
      temperature: 0.2,
      abortSignal: signal,
      purpose: options.purpose,
    };
    const result = await options.llm.doGenerate(request).catch((error: unknown) => {
      throw deadline.aborted && !options.abortSignal?.aborted ? timedOut(error) : error;
    });
    if (result.text) texts.push(result.text);
    if (result.toolCalls.length === 0) return { text: texts.join('\n'), turns: turn, toolCalls };
    messages.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls.map(trimEcho) });
    for (const [i, call] of result.toolCalls.entries()) {
      toolCalls++;
      // One turn may not fan out into hundreds of writes: calls past the cap are refused unexecuted.
      const outcome =
        i < maxCallsPerTurn
          ? await options.execute(call)
          : { content: `refused: at most ${maxCallsPerTurn} tool calls per turn; make the rest in the next turn.`, isError: true };
      messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content, isError: outcome.isError });
    }
  }
  throw new StrataError({
    code: 'TIMEOUT',
    message: `The ${options.purpose} agent was still calling tools after ${options.maxTurns} turns; raise maxTurns or give it fewer memories per run.`,
  });
}

/**
 * What runs the organiser's tool loop. The default asks Strata's LLM turn by turn (`runAgentLoop`);
 * a host with its own agent runtime (OpenClaw's embedded runner) may run the loop there instead.
 * Either way every action goes through `execute` (the sandbox), and `maxTurns` / `timeoutMs` bound it.
 */
export interface AgentRunner {
  run(options: AgentRunOptions): Promise<AgentLoopResult>;
}

export interface AgentRunOptions {
  /** The agent whose memories are organised (a host runs the loop as that agent). */
  agentId: string;
  system: string;
  prompt: string;
  tools: LlmToolDefinition[];
  execute: (call: LlmToolCall) => Promise<ToolOutcome>;
  maxTurns: number;
  timeoutMs: number;
  purpose: string;
  abortSignal?: AbortSignal;
}

/** The default runner: Strata's own (tool-capable) LLM in `runAgentLoop`. */
export function llmAgentRunner(llm: LlmV1): AgentRunner {
  return {
    run: ({ system, prompt, agentId: _agent, ...rest }) =>
      runAgentLoop({
        llm,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
        ...rest,
      }),
  };
}
