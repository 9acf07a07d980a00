/**
 * What the conversation index holds for one turn, built here in one place. Two texts: the lexical
 * one is recall's `buildTurnIndexText` (the turn, its neighbours of the same session and the date:
 * an answer is found by the question before it and named by the turn after it), rewritten when
 * the successor arrives; the embedded one is the turn's own words, never rewritten, so a new
 * neighbour never costs an embedding (storage keeps a vector while its embedding text holds).
 */
import type { L0Record } from '../../spec/conversation.js';
import { buildTurnIndexText, type TurnForIndex } from '../recall/conversation/turn-text.js';

/** Stable id of a turn's document: one per L0 record. */
export function conversationDocumentId(r: Pick<L0Record, 'host' | 'agentId' | 'sessionId' | 'id'>): string {
  return JSON.stringify([r.host, r.agentId, r.sessionId, r.id]);
}

export interface TurnContext {
  turn: L0Record;
  /** The turn before it in the same session (host, agent, session id), when there is one. */
  previous?: L0Record;
  /** The turn after it, once it has been captured (the document is rebuilt then). */
  next?: L0Record;
  /** UTC day (`YYYY-MM-DD`) the turn happened. */
  sessionDate: string;
}

export interface TurnDocumentText {
  /** What the full-text channel searches. */
  text: string;
  /** What the vector describes. */
  embeddingText: string;
}

export type BuildTurnDocument = (context: TurnContext) => TurnDocumentText;

const forIndex = (r: L0Record | undefined): TurnForIndex | undefined => (r ? { speaker: r.role, text: r.content } : undefined);

/** The turn with its neighbours and its date for the lexical channel; its own words for the dense one. */
export const buildTurnDocument: BuildTurnDocument = ({ turn, previous, next }) => ({
  text: buildTurnIndexText({ turn: forIndex(turn)!, previous: forIndex(previous), next: forIndex(next), time: turn.timestamp }),
  embeddingText: turn.content,
});

export function turnDate(turn: Pick<L0Record, 'timestamp'>): string {
  const t = new Date(turn.timestamp);
  return Number.isFinite(t.getTime()) ? t.toISOString().slice(0, 10) : '1970-01-01';
}
