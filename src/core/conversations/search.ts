/**
 * Conversation search, product side: the caller's filter (agents, session, roles) and the limit
 * checked here, then recall's one conversation search (`searchConversationTurns`: the lexical
 * channel over each turn's text with its neighbours and date, the dense channel over its own words,
 * calibrated fusion, question-form and query-date factors) over the index's two channels.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationRole, ConversationSearchHit } from '../../spec/conversation.js';
import type { ConversationDocument, ConversationFilter, ConversationIndexHit, ConversationIndexV2 } from '../../spec/conversation-index.js';
import type { RecallConfig } from '../recall/config.js';
import {
  searchConversationTurns,
  type ConversationTurnResult,
  type IndexedTurn,
  type TurnHit,
  type TurnSearchSource,
} from '../recall/conversation/search.js';
import type { EmbedQuery } from '../recall/retrieve.js';

export interface SearchConversationsOptions {
  query: string;
  /** Default 10, at most the recall `maxLimit`. */
  limit?: number;
  /** Only these agents' conversations; undefined = every agent (owner reads). */
  agentIds?: string[];
  sessionKey?: string;
  /** Default: every role but `summary` (compaction summaries restate the conversation). */
  roles?: ConversationRole[];
  /** With the default roles: compaction and branch summaries too. */
  includeSummaries?: boolean;
  /** Fused scores below this are dropped; default `recall.minScore`, the threshold memory recall uses. */
  minScore?: number;
  /** "Now" for relative dates in the query ("last week"). Default: the current time. */
  now?: Date;
  abortSignal?: AbortSignal;
}

export const RAW_CONVERSATION_ROLES: ConversationRole[] = ['user', 'assistant', 'tool', 'system'];

/** A stored turn as recall's conversation search sees it. */
export interface IndexedConversationTurn extends IndexedTurn {
  document: ConversationDocument;
}

function toTurn(document: ConversationDocument): IndexedConversationTurn {
  return {
    key: document.id,
    speaker: document.record.role,
    text: document.record.content,
    indexedText: document.text,
    time: document.record.timestamp,
    document,
  };
}

const toHits = (hits: ConversationIndexHit[]): Array<TurnHit<IndexedConversationTurn>> =>
  hits.map((h) => ({ turn: toTurn(h.document), score: h.score, vector: h.vector }));

/** The index as a search source limited to `filter` (what the caller may read). */
export function conversationTurnSource(index: ConversationIndexV2, filter: ConversationFilter): TurnSearchSource<IndexedConversationTurn> {
  return {
    ...(index.capabilities.fullTextSearch
      ? {
          searchText: async (o) =>
            toHits(await index.searchText({ query: o.query, limit: o.limit, filter, withVectors: index.capabilities.vectorSearch })),
        }
      : { searchText: async () => [] }),
    ...(index.capabilities.vectorSearch
      ? {
          searchVector: async (o: { vector: number[]; limit: number }) =>
            toHits(await index.searchVector({ vector: o.vector, limit: o.limit, filter })),
        }
      : {}),
  };
}

export async function searchConversationIndex(
  options: SearchConversationsOptions & {
    index: ConversationIndexV2;
    embedQuery: EmbedQuery | undefined;
    config: RecallConfig;
  },
): Promise<ConversationSearchHit[]> {
  const { index, config } = options;
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > config.maxLimit) {
    throw new InvalidArgumentError({ argument: 'limit', message: `limit must be a whole number from 1 to ${config.maxLimit}.` });
  }
  const minScore = options.minScore ?? config.minScore;
  if (!Number.isFinite(minScore) || minScore < 0) {
    throw new InvalidArgumentError({ argument: 'minScore', message: `minScore must be a number >= 0 (got ${String(minScore)}).` });
  }
  if (options.query.trim() === '') return [];
  const filter: ConversationFilter = {
    agentIds: options.agentIds,
    sessionKey: options.sessionKey,
    roles: options.roles ?? (options.includeSummaries ? [...RAW_CONVERSATION_ROLES, 'summary'] : RAW_CONVERSATION_ROLES),
  };
  // The index caps one search at 1,000 hits.
  const poolConfig = { ...config, candidatePoolMax: Math.min(config.candidatePoolMax, 1000) };
  const results = await searchConversationTurns({
    source: conversationTurnSource(index, filter),
    embedQuery: options.embedQuery,
    query: options.query,
    limit,
    config: poolConfig,
    now: options.now,
    abortSignal: options.abortSignal,
  });
  // Nearest neighbours always exist: without a floor an unrelated query lists the closest noise.
  return results.filter((r) => r.score >= minScore).map((r) => ({ record: r.turn.document.record, score: r.score, scores: r.scores }));
}

/** A product hit as recall's conversation result (what the fallback and the context block take). */
export function asTurnResult(hit: ConversationSearchHit): ConversationTurnResult {
  const r = hit.record;
  return {
    turn: {
      key: JSON.stringify([r.host, r.agentId, r.sessionId, r.id]),
      speaker: r.role,
      text: r.content,
      indexedText: r.content,
      time: r.timestamp,
    },
    score: hit.score,
    scores: hit.scores ?? { fused: hit.score, form: 1, date: 1 },
  };
}
