/**
 * Conversation hits as a second recall source: when the memories do not answer a query (nothing
 * found, or nothing above `minMemoryScore`), the turns of past conversations that do are added,
 * marked as conversation excerpts with their date. This is the offline path to "it remembers what
 * we said": without an LLM, distillation learns little, but what was said is still searchable.
 */
import { escapeMemoryText } from '../context-format.js';
import { estimateTokens } from '../tokens.js';
import type { ConversationTurnResult, IndexedTurn } from './search.js';
import { spokenDate } from './turn-text.js';

export interface ConversationFallbackOptions {
  /** Memories at or above this final score answer the query: no conversation search. Default 0.4 (see SCORE_SCALE). */
  minMemoryScore?: number;
  /** Conversation hits below this score are left out. Default 0.3. */
  minTurnScore?: number;
  /** Turns added at most. Default 3. */
  limit?: number;
}

/** Scored memory results, best first (a RecallResult fits). */
export interface ScoredResults {
  results: ReadonlyArray<{ score: number }>;
}

export function memoriesAnswer(result: ScoredResults, options: ConversationFallbackOptions = {}): boolean {
  const best = result.results[0]?.score ?? 0;
  return best >= (options.minMemoryScore ?? 0.4);
}

/**
 * Runs `search` only when the memories do not answer, and keeps its confident hits. `search` is
 * the caller-scoped conversation search (it decides which agents' conversations may be read).
 */
export async function conversationFallback<T extends IndexedTurn>(
  options: {
    memories: ScoredResults;
    search: (limit: number) => Promise<Array<ConversationTurnResult<T>>>;
  } & ConversationFallbackOptions,
): Promise<Array<ConversationTurnResult<T>>> {
  if (memoriesAnswer(options.memories, options)) return [];
  const limit = options.limit ?? 3;
  const hits = await options.search(limit);
  return hits.filter((h) => h.score >= (options.minTurnScore ?? 0.3)).slice(0, limit);
}

/** A conversation hit as recall shows it: marked as such, with its date, apart from memories. */
export interface ConversationExcerpt {
  kind: 'conversation';
  /** `YYYY-MM-DD` (UTC) of the turn. */
  date: string;
  speaker: string;
  text: string;
  score: number;
}

export function toConversationExcerpt(hit: ConversationTurnResult): ConversationExcerpt {
  return {
    kind: 'conversation',
    date: new Date(hit.turn.time).toISOString().slice(0, 10),
    speaker: hit.turn.speaker,
    text: hit.turn.text,
    score: hit.score,
  };
}

/** `<conversation-excerpts>` lines: "- [conversation, 8 May 2023] Caroline: ...", escaped like memory lines, within a token budget. */
export function formatConversationExcerpts(options: { hits: ReadonlyArray<ConversationTurnResult>; maxTokens: number }): string {
  const open = '<conversation-excerpts note="said in past conversations, not verified memories">';
  const close = '</conversation-excerpts>';
  let budget = options.maxTokens - estimateTokens(open) - estimateTokens(close) - 2;
  const lines: string[] = [];
  for (const hit of options.hits) {
    const text = escapeMemoryText(`${hit.turn.speaker}: ${hit.turn.text}`.replace(/\s+/g, ' '));
    const line = `- [conversation, ${spokenDate(hit.turn.time)}] ${text}`;
    const cost = estimateTokens(line) + 1;
    if (cost > budget) break;
    lines.push(line);
    budget -= cost;
  }
  return lines.length === 0 ? '' : [open, ...lines, close].join('\n');
}
