import { appendFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import type { EngineContext } from '../../src/core/engine/context.js';
import { createLlmClient, type LlmClient } from '../../src/core/llm/index.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-llm-server.js';

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'strata-distill-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

let seq = 0;
/** One L0 message; `at` is the message time (ISO). */
export function msg(options: {
  session: string;
  role: L0Record['role'];
  content: string;
  at: string;
  agent?: string;
  id?: string;
}): L0Record {
  seq++;
  return {
    sessionKey: `agent:${options.agent ?? 'main'}:${options.session}`,
    sessionId: options.session,
    agentId: options.agent ?? 'main',
    host: 'live',
    id: options.id ?? `${options.session}-m${seq}`,
    role: options.role,
    content: options.content,
    timestamp: Date.parse(options.at),
    recordedAt: options.at,
  };
}

/**
 * Appends records to the L0 day file of their recording time, in the capture file format. Like the
 * JSONL L0 log, never to a day file older than the newest one: log positions only grow, so a record
 * backfilled with an older recording time lands at the end (where readers that follow the log find it).
 */
export async function writeL0(home: string, records: L0Record[]): Promise<void> {
  const dir = join(home, 'conversations');
  await mkdir(dir, { recursive: true });
  for (const r of records) {
    const newest = (await readdir(dir))
      .filter((f) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(f))
      .sort()
      .at(-1);
    const file = [`${r.recordedAt.slice(0, 10)}.jsonl`, newest ?? ''].sort().at(-1)!;
    await appendFile(join(dir, file), JSON.stringify(r) + '\n');
  }
}

export function openStrata(home: string): Promise<Strata> {
  return Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
}

/** The engine context (protected on MemoryEngine; the distill functions take it directly). */
export function ctxOf(strata: Strata): EngineContext {
  return (strata as unknown as { ctx: EngineContext }).ctx;
}

export function llmClient(baseURL: string, options: { home?: string; maxRetries?: number } = {}): LlmClient {
  return createLlmClient({
    llm: createOpenAIChat({ baseURL, model: 'scripted', jsonMode: 'json_schema', pricing: { inputPerMillion: 1, outputPerMillion: 2 } }),
    initialDelayMs: 1,
    maxDelayMs: 5,
    maxRetries: options.maxRetries ?? 2,
    ...(options.home ? { usageLog: { home: options.home } } : {}),
  });
}

export function schemaNameOf(request: RecordedRequest): string | undefined {
  if (request.api === 'anthropic') return (request.body?.tool_choice as { name?: string } | undefined)?.name;
  const format = request.body?.response_format as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name;
}

/** The user text of a request in either wire format (Anthropic sends content blocks). */
export function userContent(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('')))
    .join('\n');
}

/** Adapts a text-JSON model to the Anthropic forced-tool path (structured output arrives as a tool call). */
export function asAnthropic(model: (request: RecordedRequest) => ScriptedReply) {
  return (request: RecordedRequest): ScriptedReply => {
    const reply = model(request);
    if (request.api !== 'anthropic' || reply.kind !== 'text') return reply;
    return {
      kind: 'tool-calls',
      calls: [{ name: schemaNameOf(request) ?? 'output', arguments: JSON.parse(reply.text) as unknown }],
      usage: reply.usage,
    };
  };
}

export interface PromptMessage {
  id: string;
  role: string;
  content: string;
}

/**
 * The messages an extraction prompt carries: `[n role hh:mm]` header lines, each followed by the
 * message text; `id` is the number the model cites in sourceMessageIds.
 */
export function extractionInput(request: RecordedRequest): PromptMessage[] {
  // The first user message is the prompt; a repair request appends its own instructions after it.
  return parseExtractionPrompt(userMessages(request)[0] ?? '');
}

function userMessages(request: RecordedRequest): string[] {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('')));
}

export function parseExtractionPrompt(text: string): PromptMessage[] {
  const out: PromptMessage[] = [];
  for (const line of text.split('\n')) {
    const header = /^\[(\d+) (user|assistant|summary|system|tool) \d\d:\d\d\]$/.exec(line);
    if (header) out.push({ id: header[1]!, role: header[2]!, content: '' });
    else if (/^## Conversation/.test(line)) continue;
    else if (out.length > 0) out[out.length - 1]!.content += (out[out.length - 1]!.content ? '\n' : '') + line;
  }
  return out;
}

export interface ReconcileInput {
  candidates: Array<{ index: number; text: string; existing: Array<{ id: string; text: string }> }>;
}

export function reconcileInput(request: RecordedRequest): ReconcileInput {
  return JSON.parse(userContent(request)) as ReconcileInput;
}

export interface ScriptedMemory {
  text: string;
  category?: string;
  scope?: 'global' | 'agent';
  confidence?: number;
  sourceMessageIds: string[];
}

export function memoriesReply(memories: ScriptedMemory[], usage = { inputTokens: 200, outputTokens: 40 }): ScriptedReply {
  return {
    kind: 'text',
    usage,
    text: JSON.stringify({
      memories: memories.map((m) => ({
        text: m.text,
        category: m.category ?? 'preference',
        importance: 0.7,
        confidence: m.confidence ?? 0.9,
        scope: m.scope ?? 'global',
        temporal: 'dynamic',
        validFrom: null,
        sourceMessageIds: m.sourceMessageIds,
        keywords: ['editor', 'theme', '主题'],
      })),
    }),
  };
}

export function decisionsReply(
  decisions: Array<{ index: number; action: string; targetId?: string | null; text?: string | null; reason?: string }>,
): ScriptedReply {
  return {
    kind: 'text',
    usage: { inputTokens: 150, outputTokens: 30 },
    text: JSON.stringify({ decisions: decisions.map((d) => ({ targetId: null, text: null, reason: 'scripted', ...d })) }),
  };
}

/**
 * A scripted "model" for the editor-theme story: extracts preferences about dark/light mode from
 * user messages, and decides skip for a restated preference, supersede for a changed one.
 */
export function themeModel(request: RecordedRequest): ScriptedReply {
  if (schemaNameOf(request) === 'memories') {
    const out: ScriptedMemory[] = [];
    for (const m of extractionInput(request)) {
      if (m.role !== 'user') continue;
      if (/light mode/i.test(m.content)) out.push({ text: 'The user prefers light mode in the editor.', sourceMessageIds: [m.id] });
      else if (/dark mode/i.test(m.content) && /again|still/i.test(m.content))
        out.push({ text: 'The user likes the dark mode editor theme.', sourceMessageIds: [m.id] });
      else if (/dark mode/i.test(m.content)) out.push({ text: 'The user prefers dark mode in the editor.', sourceMessageIds: [m.id] });
      else if (/deploy/i.test(m.content))
        out.push({ text: 'The team deploys on Fridays only after review.', category: 'rule', scope: 'agent', sourceMessageIds: [m.id] });
    }
    return memoriesReply(out);
  }
  const input = reconcileInput(request);
  return decisionsReply(
    input.candidates.map((c) => {
      const dark = c.existing.find((e) => /dark mode/i.test(e.text));
      if (/light mode/i.test(c.text) && dark)
        return { index: c.index, action: 'supersede', targetId: dark.id, reason: 'preference changed' };
      if (/dark mode/i.test(c.text) && dark) return { index: c.index, action: 'skip', targetId: dark.id, reason: 'same preference' };
      return { index: c.index, action: 'create' };
    }),
  );
}
