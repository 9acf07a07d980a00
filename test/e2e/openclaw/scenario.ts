/**
 * What the scripted model does in the OpenClaw suite, and how the suite reads the requests it got.
 * The policy answers from the request itself: Strata's distillation prompt gets an (empty) JSON
 * extraction; an agent turn asking to "remember" gets a `memory_store` call (directly, or through
 * `tool_call` when OpenClaw 2026.9.6 hides tools behind Tool Search); a tool result gets a short
 * acknowledgement; anything else a plain reply.
 */
import { contentText, systemText, type ChatRequest, type ModelReply } from '../support/model-server.js';
import type { RunResult } from './world.js';

export function isDistillation(request: ChatRequest): boolean {
  return systemText(request).includes('You distill a conversation');
}

/** A request of OpenClaw's agent loop (it always offers tools). */
export function isAgentTurn(request: ChatRequest): boolean {
  return (request.tools?.length ?? 0) > 0 && !isDistillation(request);
}

export function lastUserText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === 'user')
    .map((m) => contentText(m.content))
    .join('\n');
}

/** Texts of the tool results the model was sent back. */
export function toolResultTexts(request: ChatRequest): string[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
}

function toolNames(request: ChatRequest): Set<string> {
  return new Set((request.tools ?? []).map((t) => t.function.name));
}

export function agentPolicy(request: ChatRequest): ModelReply {
  if (isDistillation(request)) return { text: JSON.stringify({ memories: [] }) };
  // OpenClaw appends its own context as a last user message; the person's prompt is the one before.
  const prompt = request.messages.findLastIndex((m) => m.role === 'user' && !contentText(m.content).includes('OPENCLAW_INTERNAL_CONTEXT'));
  const answered = request.messages.slice(prompt + 1).findLast((m) => m.role === 'tool');
  if (answered) return { text: `Done: ${contentText(answered.content).slice(0, 200)}` };
  const asked = contentText(request.messages[prompt]?.content);
  const remember = /Please remember: (.+?)(?:\n|$)/.exec(asked);
  if (remember && isAgentTurn(request)) {
    const args = { text: remember[1]!.trim(), category: 'fact' };
    const names = toolNames(request);
    if (names.has('memory_store')) return { toolCalls: [{ name: 'memory_store', arguments: args }] };
    if (names.has('tool_call')) return { toolCalls: [{ name: 'tool_call', arguments: { id: 'memory_store', args } }] };
  }
  return { text: 'Noted.' };
}

/** One line per measured command, for the suite's closing figures. */
export function report(version: string, what: string, out: RunResult): void {
  const rss = out.maxRssKb ? `${Math.round(out.maxRssKb / 1024)} MiB peak RSS` : 'RSS not measured';
  process.stdout.write(`[openclaw ${version}] ${what}: ${(out.ms / 1000).toFixed(1)} s, ${rss}, exit ${out.code}\n`);
}
