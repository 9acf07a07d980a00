import { z } from 'zod';
import type { L0Record } from '../../spec/conversation.js';
import type { LlmUsage, LlmV1 } from '../../spec/llm.js';
import { MEMORY_CATEGORIES, type MemoryCategory } from '../../spec/memory-record.js';
import type { LlmClient } from '../llm/llm-client.js';
import { generateObject } from '../llm/generate-object.js';
import { EXTRACTION_SYSTEM_PROMPT, renderBatch } from './prompt.js';
import { countTokens } from './tokens.js';
import { assertAgentId } from '../scope.js';
import type { AdmissionGate } from './admission.js';
import { restates } from './restated.js';
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
  /** When it was said: the time of its (first) source message. Reconciliation goes in this order. */
  statedAt?: string;
  keywords: string[];
  agentId: string;
  sessionKey: string;
  sourceMessageIds: string[];
  /** Rule capture only: the speaker said it was a repetition ("as I said", "still"). */
  restated?: true;
  /** Rule capture only: no trigger phrase introduced it (rules.ts). */
  untriggered?: true;
  /** LLM only: the model cited no message of the batch; `sourceMessageIds` holds the first user message. */
  uncited?: true;
}

/** When a statement was made: the source message time, else its validFrom. */
export function statedAtOf(candidate: Candidate): number {
  return Date.parse(candidate.statedAt ?? candidate.validFrom ?? '') || 0;
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

/** The extraction call's messages for a batch; `refs` maps the numbers the model cites back to records. */
export function extractionMessages(
  messages: L0Record[],
  options: { maxTokens?: number } = {},
): { messages: Array<{ role: 'system' | 'user'; content: string }>; refs: Map<string, L0Record> } {
  const batch = renderBatch(messages, options);
  return {
    messages: [
      { role: 'system', content: EXTRACTION_SYSTEM_PROMPT },
      { role: 'user', content: batch.text },
    ],
    refs: batch.refs,
  };
}

/** Input tokens of the extraction call for a batch (real tokenizer once loaded), for budget checks. */
export function estimateExtractionTokens(messages: L0Record[], options: { maxTokens?: number } = {}): number {
  return extractionMessages(messages, options).messages.reduce((sum, m) => sum + countTokens(m.content) + 4, 0);
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

/**
 * One LLM call for a batch of one agent's messages. The model cites messages by their number in the
 * prompt; numbers it invents are dropped (provenance stays true).
 */
export async function extractWithLlm(options: {
  llm: LlmV1 | LlmClient;
  agentId: string;
  messages: L0Record[];
  /** Output tokens for the reply. Default 2000. */
  maxTokens?: number;
  /** The chunk budget the batch was built for (messages too large for it are rendered cut). */
  chunkTokens?: number;
  abortSignal?: AbortSignal;
}): Promise<{ candidates: Candidate[]; usage: LlmUsage; calls: number }> {
  const { messages } = options;
  const prompt = extractionMessages(messages, { maxTokens: options.chunkTokens });
  const result = await generateObject({
    llm: options.llm,
    messages: prompt.messages,
    schema: extractionSchema,
    schemaName: 'memories',
    purpose: 'distill.extract',
    maxTokens: options.maxTokens ?? 2000,
    temperature: 0,
    abortSignal: options.abortSignal,
  });
  // Numbers as the prompt gave them; a model that answers with the stored ids is understood too.
  const byId = new Map<string, L0Record>([...messages.map((m) => [m.id, m] as const), ...prompt.refs]);
  const candidates = result.object.memories.map((m): Candidate => {
    const sources = [
      ...new Set(
        m.sourceMessageIds
          .map((ref) => byId.get(String(ref).replace(/^\[?m?(\d+)\]?$/, '$1'))?.id ?? byId.get(ref)?.id)
          .filter((id): id is string => id !== undefined),
      ),
    ];
    // Without a usable source id the memory is attributed to the batch's first user message.
    const first = byId.get(sources[0] ?? '') ?? messages.find((c) => c.role === 'user') ?? messages[0]!;
    const sameSession = (id: string) => messages.find((r) => r.id === id)?.sessionKey === first.sessionKey;
    return {
      text: m.text.trim(),
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      scope: scopeFor(m.scope, options.agentId),
      temporal: m.temporal,
      validFrom: isoOrUndefined(m.validFrom) ?? new Date(first.timestamp).toISOString(),
      statedAt: new Date(first.timestamp).toISOString(),
      keywords: cleanKeywords(m.keywords),
      agentId: options.agentId,
      sessionKey: first.sessionKey,
      sourceMessageIds: sources.length > 0 ? sources.filter(sameSession) : [first.id],
      ...(sources.length > 0 ? {} : { uncited: true as const }),
    };
  });
  return { candidates, usage: result.usage, calls: result.repaired ? 2 : 1 };
}

/**
 * The no-LLM path: rule-based capture over user messages, compaction summaries (role `summary`)
 * and, for explicit lessons only, assistant messages. Rule capture admits through `gate` itself,
 * so its output is admitted.
 */
export function extractByRules(options: {
  agentId: string;
  messages: L0Record[];
  gate: AdmissionGate;
  maxPerTurn?: number;
  scope?: 'global' | 'agent';
}): Candidate[] {
  const out: Candidate[] = [];
  for (const m of options.messages) {
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'summary') continue;
    // A summary retells its session: what an earlier message of the session already taught is skipped.
    const told = m.role === 'summary' ? out.filter((c) => c.sessionKey === m.sessionKey).map((c) => c.text) : [];
    // The user's own cap applies to user messages; summaries and assistants keep their defaults.
    const maxPerTurn = m.role === 'user' ? options.maxPerTurn : undefined;
    for (const c of captureByRules({ text: m.content, role: m.role, gate: options.gate, maxPerTurn })) {
      if (told.some((t) => restates(t, c.text))) continue;
      out.push({
        text: c.text,
        category: c.category,
        importance: c.importance,
        confidence: c.confidence,
        scope: scopeFor(options.scope ?? 'agent', options.agentId),
        temporal: c.category === 'preference' || c.category === 'event' || c.trigger === 'change' ? 'dynamic' : 'static',
        validFrom: new Date(m.timestamp).toISOString(),
        statedAt: new Date(m.timestamp).toISOString(),
        keywords: [],
        agentId: options.agentId,
        sessionKey: m.sessionKey,
        sourceMessageIds: [m.id],
        ...(c.restated ? { restated: c.restated } : {}),
        ...(c.untriggered ? { untriggered: c.untriggered } : {}),
      });
    }
  }
  return out;
}
