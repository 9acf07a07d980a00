/**
 * What the scripted model does in the OpenClaw suite, and how the suite reads the requests it got.
 * The policy answers from the request itself: Strata's distillation prompt gets a JSON extraction
 * (one memory when the conversation names the build server, else none) and a reconciliation keeps
 * it; the scene organiser (a helper run on OpenClaw's embedded runner offered Strata's scene tools;
 * without a runner, `runtime.llm.complete` with the tools as a text protocol) writes one scene, then
 * finishes; an
 * agent turn asking to "remember" gets a `memory_store` call (directly, or through `tool_call` when
 * OpenClaw 2026.9.6 hides tools behind Tool Search); a tool result gets a short acknowledgement;
 * anything else a plain reply.
 */
import { expect } from 'vitest';
import { TEXT_TOOL_PROTOCOL_HEADING } from '../../../src/core/layers/text-tools.js';
import { contentText, systemText, type ChatRequest, type ModelReply, type ModelServer } from '../support/model-server.js';
import type { RunResult, World } from './world.js';

/** The scene the scripted organiser writes. */
export const ORGANISED_SCENE = 'build-infrastructure.md';

export function isDistillation(request: ChatRequest): boolean {
  return systemText(request).includes('You distill a conversation');
}

export function isReconciliation(request: ChatRequest): boolean {
  return systemText(request).includes("You keep an AI agent's long-term memory consistent");
}

/** The organiser's prompt, on OpenClaw's embedded runner (scene tools) or, without one, as the text protocol. */
export function isOrganiser(request: ChatRequest): boolean {
  return (
    systemText(request).includes(TEXT_TOOL_PROTOCOL_HEADING) ||
    request.messages.some((m) => m.role === 'user' && contentText(m.content).includes('Fold these memories into the scenes.'))
  );
}

/** The numbered messages of an extraction prompt (`[n role hh:mm]` headers). */
function extractionIds(request: ChatRequest): string[] {
  const prompt = request.messages.filter((m) => m.role === 'user').map((m) => contentText(m.content))[0] ?? '';
  return [...prompt.matchAll(/^\[(\d+) (?:user|assistant|summary|system|tool) \d\d:\d\d\]$/gm)].map((m) => m[1]!);
}

function distillationReply(request: ChatRequest): ModelReply {
  const conversation = request.messages.map((m) => contentText(m.content)).join('\n');
  if (!conversation.includes('heron-basalt-7')) return { text: JSON.stringify({ memories: [] }) };
  const memory = {
    text: 'The user runs nightly builds on a dedicated build server they named after a heron',
    category: 'fact',
    importance: 0.7,
    confidence: 0.9,
    scope: 'agent',
    temporal: 'dynamic',
    validFrom: null,
    sourceMessageIds: extractionIds(request),
    keywords: ['build', 'server'],
  };
  return { text: JSON.stringify({ memories: [memory] }) };
}

function reconciliationReply(request: ChatRequest): ModelReply {
  const prompt =
    request.messages
      .filter((m) => m.role === 'user')
      .map((m) => contentText(m.content))
      .at(-1) ?? '{}';
  let indexes: number[] = [0];
  try {
    indexes = (JSON.parse(prompt) as { candidates: Array<{ index: number }> }).candidates.map((c) => c.index);
  } catch {
    // not the JSON we expect: decide for the first candidate
  }
  return {
    text: JSON.stringify({ decisions: indexes.map((index) => ({ index, action: 'create', targetId: null, text: null, reason: 'new' })) }),
  };
}

function organiserReply(request: ChatRequest): ModelReply {
  const done = { text: `Filed the build server facts under ${ORGANISED_SCENE}.` };
  const args = { file: ORGANISED_SCENE, summary: 'Build machines', content: 'The build server is heron-basalt-7; builds run nightly.' };
  if (request.messages.at(-1)?.role === 'tool') return done;
  const names = toolNames(request);
  // OpenClaw's embedded runner offers the plugin's scene tools (2026.9.6: behind Tool Search's tool_call).
  if (names.has('strata_write_scene')) return { toolCalls: [{ name: 'strata_write_scene', arguments: args }] };
  if (names.has('tool_call')) return { toolCalls: [{ name: 'tool_call', arguments: { id: 'strata_write_scene', args } }] };
  // No runner: the text protocol over runtime.llm.complete.
  if (contentText(request.messages.at(-1)?.content).startsWith('Result of ')) return done;
  return { text: `\`\`\`json\n${JSON.stringify({ tool_calls: [{ name: 'write_scene', arguments: args }] })}\n\`\`\`` };
}

/** A request of OpenClaw's agent loop (it always offers tools). */
export function isAgentTurn(request: ChatRequest): boolean {
  return (request.tools?.length ?? 0) > 0 && !isDistillation(request) && !isOrganiser(request);
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
  if (isDistillation(request)) return distillationReply(request);
  if (isReconciliation(request)) return reconciliationReply(request);
  if (isOrganiser(request)) return organiserReply(request);
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

/** Runs one `openclaw agent --local` turn and returns the agent-loop request it sent, which must carry recalled memories. */
export async function recalledLocalTurn(options: {
  world: World;
  model: ModelServer;
  version: string;
  label: string;
  message: string;
}): Promise<ChatRequest> {
  const from = options.model.requests.length;
  const out = await options.world.openclaw(['agent', '--local', '--agent', 'main', '--message', options.message], { measure: true });
  report(options.version, options.label, out);
  expect(out.code, out.stderr.slice(-3000)).toBe(0);
  const turn = options.model.requests.slice(from).find(isAgentTurn);
  expect(turn, 'the agent turn reached the model').toBeDefined();
  expect(lastUserText(turn!)).toContain('<relevant-memories>');
  return turn!;
}
