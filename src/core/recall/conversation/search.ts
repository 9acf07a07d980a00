/**
 * Conversation search over indexed turns, with the same engine pieces as memory recall: the
 * lexical channel searches each turn's index text (turn-text.ts: own words twice, neighbours,
 * session date), the dense channel the turn's own words; fusion.ts calibrates and fuses them, and
 * the question-form and query-date factors of scoring.ts apply (a turn's time is its session's).
 * Storage is the index's business (`TurnSearchSource`, already limited to what the caller may see).
 */
import type { RecallConfig } from '../config.js';
import { cosineSimilarity } from '../diversity.js';
import { fuse, type FusedCandidate } from '../fusion.js';
import { parseQueryTime } from '../dates.js';
import { dateFactor, formFactor } from '../scoring.js';
import { contentTerms, termCoverage } from '../terms.js';
import { embedWithTimeout, type EmbedQuery } from '../retrieve.js';

export interface IndexedTurn {
  /** Unique per turn (e.g. host, agent, session and entry id). */
  key: string;
  speaker: string;
  /** The turn's own words. */
  text: string;
  /** What the lexical channel searched (buildTurnIndexText). */
  indexedText: string;
  /** Epoch ms: the session date, else the message time. */
  time: number;
}

export interface TurnHit<T extends IndexedTurn = IndexedTurn> {
  turn: T;
  /** BM25 for text search, cosine similarity for vector search. */
  score: number;
  /** The turn's stored embedding (of its own words), when the source returns it. */
  vector?: number[] | null;
}

export interface TurnSearchSource<T extends IndexedTurn = IndexedTurn> {
  searchText(options: { query: string; limit: number; abortSignal?: AbortSignal }): Promise<Array<TurnHit<T>>>;
  /** Absent when the index holds no vectors. */
  searchVector?(options: { vector: number[]; limit: number; abortSignal?: AbortSignal }): Promise<Array<TurnHit<T>>>;
}

export interface ConversationTurnResult<T extends IndexedTurn = IndexedTurn> {
  turn: T;
  /** In [0, 1], as for memories: fused relevance x question-form x date factors. */
  score: number;
  scores: { lexical?: number; vector?: number; fused: number; form: number; date: number };
}

export async function searchConversationTurns<T extends IndexedTurn>(options: {
  source: TurnSearchSource<T>;
  embedQuery?: EmbedQuery;
  query: string;
  limit: number;
  config: RecallConfig;
  now?: Date;
  abortSignal?: AbortSignal;
}): Promise<Array<ConversationTurnResult<T>>> {
  const { source, config, query, limit, abortSignal } = options;
  const text = query.trim();
  if (text === '') return [];
  const pool = Math.min(config.candidatePoolMax, Math.max(config.candidatePoolMin, Math.ceil(limit * config.candidatePoolMultiplier)));
  const useLexical = config.mode !== 'vector';
  const useVector = config.mode !== 'lexical' && source.searchVector !== undefined && options.embedQuery !== undefined;
  const [lexical, embedded] = await Promise.all([
    useLexical ? source.searchText({ query: text, limit: pool, abortSignal }) : Promise.resolve(null),
    useVector
      ? embedWithTimeout({ embedQuery: options.embedQuery!, text, timeoutMs: config.embedTimeoutMs, abortSignal })
      : Promise.resolve(null),
  ]);
  const queryVector = embedded?.vector ?? null;
  const vector = queryVector && source.searchVector ? await source.searchVector({ vector: queryVector, limit: pool, abortSignal }) : null;
  abortSignal?.throwIfAborted();

  const turns = new Map<string, { turn: T; vector?: number[] | null }>();
  for (const hit of [...(lexical ?? []), ...(vector ?? [])]) {
    const known = turns.get(hit.turn.key);
    if (!known) turns.set(hit.turn.key, { turn: hit.turn, vector: hit.vector });
    else if (!known.vector && hit.vector) known.vector = hit.vector;
  }
  const queryTerms = contentTerms(text);
  const coverage = new Map([...turns].map(([key, t]) => [key, termCoverage({ queryTerms, text: t.turn.indexedText })]));
  const extraVectorScores = new Map<string, number>();
  if (queryVector) {
    for (const [key, t] of turns)
      if (t.vector && t.vector.length === queryVector.length) extraVectorScores.set(key, cosineSimilarity(queryVector, t.vector));
  }
  const toChannel = (hits: Array<TurnHit<T>> | null) => (hits ? hits.map((h) => ({ id: h.turn.key, score: h.score })) : null);
  const fused = fuse({ lexical: toChannel(lexical), vector: toChannel(vector), coverage, extraVectorScores, config: config.fusion });

  const range = await parseQueryTime({ query: text, now: options.now ?? new Date() });
  const scored = fused.kept.map((c: FusedCandidate, rank) => {
    const turn = turns.get(c.id)!.turn;
    const form = formFactor({ text: turn.text, config: config.scoring });
    const date = dateFactor({ time: turn.time, range, config: config.scoring });
    const score = Math.min(1, Math.max(0, c.fused * form * date));
    return {
      rank,
      result: {
        turn,
        score,
        scores: {
          ...(c.lexical ? { lexical: c.lexical.calibrated } : {}),
          ...(c.vector ? { vector: c.vector.score } : {}),
          fused: c.fused,
          form,
          date,
        },
      },
    };
  });
  scored.sort((a, b) => b.result.score - a.result.score || a.rank - b.rank);
  return scored.slice(0, limit).map((s) => s.result);
}
