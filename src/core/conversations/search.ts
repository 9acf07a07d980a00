/**
 * Conversation search: the index's full-text and vector channels, the query embedded through the
 * engine's embedding service (its cache, under the recall deadline) and the two lists fused by
 * recall's own fusion, so conversation hits and memory hits are scored the same way.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationRole, ConversationSearchHit } from '../../spec/conversation.js';
import type { ConversationDocument, ConversationFilter, ConversationIndexV1 } from '../../spec/conversation-index.js';
import type { RecallConfig } from '../recall/config.js';
import { fuse } from '../recall/fusion.js';
import { embedWithTimeout, type EmbedQuery } from '../recall/retrieve.js';

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
  abortSignal?: AbortSignal;
}

export const RAW_CONVERSATION_ROLES: ConversationRole[] = ['user', 'assistant', 'tool', 'system'];

export async function searchConversationIndex(options: SearchConversationsOptions & {
  index: ConversationIndexV1;
  embedQuery: EmbedQuery | undefined;
  config: Pick<RecallConfig, 'fusion' | 'embedTimeoutMs' | 'candidatePoolMin' | 'candidatePoolMultiplier' | 'candidatePoolMax' | 'maxLimit' | 'mode' | 'minScore'>;
}): Promise<ConversationSearchHit[]> {
  const { index, config } = options;
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > config.maxLimit) {
    throw new InvalidArgumentError({ argument: 'limit', message: `limit must be a whole number from 1 to ${config.maxLimit}.` });
  }
  const minScore = options.minScore ?? config.minScore;
  if (!Number.isFinite(minScore) || minScore < 0) {
    throw new InvalidArgumentError({ argument: 'minScore', message: `minScore must be a number >= 0 (got ${String(minScore)}).` });
  }
  const query = options.query.trim();
  if (query === '') return [];
  const filter: ConversationFilter = { agentIds: options.agentIds, sessionKey: options.sessionKey, roles: options.roles ?? (options.includeSummaries ? [...RAW_CONVERSATION_ROLES, 'summary'] : RAW_CONVERSATION_ROLES) };
  const pool = Math.min(config.candidatePoolMax, Math.max(config.candidatePoolMin, Math.ceil(config.candidatePoolMultiplier * limit)), 1000);
  const lexicalPath = config.mode !== 'vector' && index.capabilities.fullTextSearch ? index.searchText({ query, limit: pool, filter }) : Promise.resolve(null);
  const vectorPath = async () => {
    if (config.mode === 'lexical' || !index.capabilities.vectorSearch || !options.embedQuery) return null;
    const { vector } = await embedWithTimeout({ embedQuery: options.embedQuery, text: query, timeoutMs: config.embedTimeoutMs, abortSignal: options.abortSignal });
    return vector ? index.searchVector({ vector, limit: pool, filter }) : null;
  };
  const [lexical, vector] = await Promise.all([lexicalPath, vectorPath()]);
  options.abortSignal?.throwIfAborted();
  const documents = new Map<string, ConversationDocument>();
  for (const hit of [...(lexical ?? []), ...(vector ?? [])]) documents.set(hit.document.id, hit.document);
  const channel = (hits: typeof lexical) => hits?.map((h) => ({ id: h.document.id, score: h.score })) ?? null;
  const { kept } = fuse({ lexical: channel(lexical), vector: channel(vector), config: config.fusion });
  // Nearest neighbours always exist: without a floor an unrelated query lists the closest noise.
  return kept.filter((c) => c.fused >= minScore).slice(0, limit).flatMap((c) => {
    const doc = documents.get(c.id);
    return doc ? [{ record: doc.record, score: c.fused }] : [];
  });
}
