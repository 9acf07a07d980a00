import { z } from 'zod';
import type { L0Record } from '../../spec/conversation.js';
import type { LlmUsage, LlmV1 } from '../../spec/llm.js';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../../spec/memory-record.js';
import type { LlmClient } from '../llm/llm-client.js';
import { generateObject } from '../llm/generate-object.js';
import { estimateTokens } from '../recall/tokens.js';
import { assertAgentId } from '../scope.js';
import type { AdmissionGate } from './admission.js';
import { captureByRules } from './rules.js';

/**
 * Extraction: turns a chunk of one session's messages into atomic memory candidates, with an LLM
 * (one structured call per chunk) or, without one, with rule-based capture over user messages.
 * Candidates are not admitted here; the pipeline runs them through the admission gate.
 */
export interface Candidate {
  text: string;
  category: MemoryCategory;
  importance: number;
  confidence: number;
  scope: string;
  temporal: 'static' | 'dynamic';
  validFrom?: string;
  keywords: string[];
  agentId: string;
  sessionKey: string;
  sourceMessageIds: string[];
}

const EXTRACT_ROLES = new Set(['user', 'assistant']);
/** A single message longer than this is cut in the prompt: memories come from statements, not pastes. */
const MAX_MESSAGE_CHARS = 4000;

/** Splits one session's messages into chunks of at most `maxTokens` estimated prompt tokens. */
export function chunkMessages(options: { messages: L0Record[]; maxTokens: number }): L0Record[][] {
  const chunks: L0Record[][] = [];
  let current: L0Record[] = [];
  let tokens = 0;
  for (const m of options.messages) {
    if (!EXTRACT_ROLES.has(m.role)) continue;
    const t = estimateTokens(m.content.slice(0, MAX_MESSAGE_CHARS)) + 12;
    if (current.length > 0 && tokens + t > options.maxTokens) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(m);
    tokens += t;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Packs consecutive chunks (of one agent, possibly from several short sessions) into batches of at
 * most `maxTokens`, so a run over many short sessions pays the fixed prompt once per batch instead
 * of once per session. A chunk is never split.
 */
export function packChunks(options: { chunks: L0Record[][]; maxTokens: number }): L0Record[][] {
  const packs: L0Record[][] = [];
  let current: L0Record[] = [];
  let tokens = 0;
  for (const chunk of options.chunks) {
    const t = chunk.reduce((sum, m) => sum + estimateTokens(m.content.slice(0, MAX_MESSAGE_CHARS)) + 12, 0);
    if (current.length > 0 && tokens + t > options.maxTokens) {
      packs.push(current);
      current = [];
      tokens = 0;
    }
    current = current.concat(chunk);
    tokens += t;
  }
  if (current.length > 0) packs.push(current);
  return packs;
}

export const extractionSchema = z.object({
  memories: z.array(
    z.object({
      text: z.string().min(1),
      category: z.enum(MEMORY_CATEGORIES),
      importance: z.number().min(0).max(1),
      confidence: z.number().min(0).max(1),
      scope: z.enum(['global', 'agent']),
      temporal: z.enum(['static', 'dynamic']),
      validFrom: z.string().nullable(),
      sourceMessageIds: z.array(z.string()),
      keywords: z.array(z.string()),
    }),
  ),
});
export type ExtractionOutput = z.infer<typeof extractionSchema>;

const SYSTEM_PROMPT = `You distill a conversation between a user and an AI agent into long-term memories.
Return only facts worth remembering in future, unrelated sessions: stable preferences, facts about the user or
their projects, rules the user sets, decisions, and lessons learned. Each memory is ONE atomic, self-contained
statement (at most 500 characters) written in the third person ("The user prefers ..."), in the language of the
conversation. Do not keep: greetings, chatter, questions, restated instructions, tool output, recalled memory
blocks, secrets (keys, passwords, tokens), or anything only meaningful inside this conversation.
For each memory give: category (${MEMORY_CATEGORIES.join(', ')}); importance and confidence in [0,1]; scope
"global" for facts about the user that every agent should know, "agent" for things specific to this agent's work;
temporal "static" (stays true) or "dynamic" (may change); validFrom as an ISO date when the conversation states
when it became true, else null; sourceMessageIds: the ids of the messages it comes from; keywords: 3-8 search
keywords, including Chinese forms for Chinese content and English forms for technical terms.
When one conversation changes something it stated earlier, keep only the final state. When messages come from
several conversations, never merge facts across them; each memory's sourceMessageIds come from one conversation.
When nothing is worth keeping, return {"memories": []}.`;

function renderMessages(messages: L0Record[]): string {
  // Several short sessions may share one call; the session label keeps their facts apart.
  const sessions = new Set(messages.map((m) => m.sessionKey));
  const lines = messages.map((m) =>
    JSON.stringify({
      id: m.id,
      ...(sessions.size > 1 ? { session: m.sessionId } : {}),
      role: m.role,
      time: new Date(m.timestamp).toISOString(),
      content: m.content.slice(0, MAX_MESSAGE_CHARS),
    }),
  );
  const header = sessions.size > 1 ? `Messages from ${sessions.size} separate conversations (JSON lines):` : 'Conversation messages (JSON lines):';
  return `${header}\n${lines.join('\n')}`;
}

export function extractionMessages(messages: L0Record[]): Array<{ role: 'system' | 'user'; content: string }> {
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: renderMessages(messages) },
  ];
}

/** Estimated input tokens of the extraction call for a chunk (for budget checks before calling). */
export function estimateExtractionTokens(messages: L0Record[]): number {
  return extractionMessages(messages).reduce((sum, m) => sum + estimateTokens(m.content), 0);
}

/** Never falls back to `global`: an agent id that cannot form a scope is an error (the run skips that agent). */
function scopeFor(kind: 'global' | 'agent', agentId: string): string {
  return kind === 'agent' ? `agent:${assertAgentId(agentId)}` : 'global';
}

function cleanKeywords(keywords: string[]): string[] {
  return [...new Set(keywords.map((k) => k.trim().toLowerCase()).filter((k) => k.length > 0 && k.length <= 40))].slice(0, 8);
}

function isoOrUndefined(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** One LLM call for a batch of one agent's messages; source ids the model invents are dropped (provenance stays true). */
export async function extractWithLlm(options: {
  llm: LlmV1 | LlmClient;
  agentId: string;
  messages: L0Record[];
  maxTokens?: number;
  abortSignal?: AbortSignal;
}): Promise<{ candidates: Candidate[]; usage: LlmUsage; calls: number }> {
  const { messages } = options;
  const result = await generateObject({
    llm: options.llm,
    messages: extractionMessages(messages),
    schema: extractionSchema,
    schemaName: 'memories',
    purpose: 'distill.extract',
    maxTokens: options.maxTokens ?? 2000,
    temperature: 0,
    abortSignal: options.abortSignal,
  });
  const byId = new Map(messages.map((m) => [m.id, m]));
  const candidates = result.object.memories.map((m): Candidate => {
    const sources = m.sourceMessageIds.filter((id) => byId.has(id));
    // Without a usable source id the memory is attributed to the batch's first user message.
    const first = byId.get(sources[0] ?? '') ?? messages.find((c) => c.role === 'user') ?? messages[0]!;
    const sameSession = (id: string) => byId.get(id)?.sessionKey === first.sessionKey;
    return {
      text: m.text.trim(),
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      scope: scopeFor(m.scope, options.agentId),
      temporal: m.temporal,
      validFrom: isoOrUndefined(m.validFrom) ?? new Date(first.timestamp).toISOString(),
      keywords: cleanKeywords(m.keywords),
      agentId: options.agentId,
      sessionKey: first.sessionKey,
      sourceMessageIds: sources.length > 0 ? sources.filter(sameSession) : [first.id],
    };
  });
  return { candidates, usage: result.usage, calls: result.repaired ? 2 : 1 };
}

/**
 * The no-LLM path: rule-based capture over user messages (triggers such as "remember", "I prefer",
 * "always", 记住, 我喜欢). Rule capture admits through `gate` itself, so its output is admitted.
 */
export function extractByRules(options: { agentId: string; messages: L0Record[]; gate: AdmissionGate; maxPerTurn?: number; scope?: 'global' | 'agent' }): Candidate[] {
  const out: Candidate[] = [];
  for (const m of options.messages) {
    if (m.role !== 'user') continue;
    for (const c of captureByRules({ text: m.content, gate: options.gate, maxPerTurn: options.maxPerTurn })) {
      out.push({
        ...c,
        scope: scopeFor(options.scope ?? 'agent', options.agentId),
        temporal: c.category === 'preference' || c.category === 'event' ? 'dynamic' : 'static',
        validFrom: new Date(m.timestamp).toISOString(),
        keywords: [],
        agentId: options.agentId,
        sessionKey: m.sessionKey,
        sourceMessageIds: [m.id],
      });
    }
  }
  return out;
}
