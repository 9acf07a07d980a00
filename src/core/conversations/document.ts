/**
 * What the conversation index holds for one turn. The text is built here, in one place, so the
 * recall side can change it (neighbouring turns, the date) without touching storage: a turn is
 * indexed when it is appended and indexed again when its successor arrives, and storage keeps or
 * replaces a document by comparing texts.
 */
import type { L0Record } from '../../spec/conversation.js';

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

export type BuildTurnDocument = (context: TurnContext) => string;

/** The indexed text of a turn: today its own content (the recall workstream tunes this). */
export const buildTurnDocument: BuildTurnDocument = ({ turn }) => turn.content;

export function turnDate(turn: Pick<L0Record, 'timestamp'>): string {
  const t = new Date(turn.timestamp);
  return Number.isFinite(t.getTime()) ? t.toISOString().slice(0, 10) : '1970-01-01';
}
