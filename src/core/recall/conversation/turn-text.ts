/**
 * The text indexed for one conversation turn. A turn alone is the wrong unit: an answer ("Yes,
 * Oscar, a beagle") is found by the question before it and named by the turn after it. So each
 * turn is indexed with its neighbours of the same session and the session date; its own words
 * come twice, so they weigh more than the context's. On LoCoMo this lifted BM25 R@10 by about
 * 0.10 (bench/locomo.ts, conversation path).
 */

export interface TurnForIndex {
  /** Who spoke: a name, or the role (`user`, `assistant`). */
  speaker: string;
  text: string;
}

export interface TurnIndexTextOptions {
  turn: TurnForIndex;
  /** Previous and next turn of the same session, when there are. */
  previous?: TurnForIndex;
  next?: TurnForIndex;
  /** When the session (or the turn) took place, epoch ms. */
  time?: number;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "8 May 2023": day, month name and year are all searchable words. */
export function spokenDate(time: number): string {
  const d = new Date(time);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

const line = (t: TurnForIndex) => `${t.speaker}: ${t.text}`;

export function buildTurnIndexText(options: TurnIndexTextOptions): string {
  const own = line(options.turn);
  const parts = [own, own];
  if (options.previous) parts.push(line(options.previous));
  if (options.next) parts.push(line(options.next));
  if (options.time !== undefined && Number.isFinite(options.time)) parts.unshift(spokenDate(options.time));
  return parts.join('\n');
}

/** Index texts for one session's turns, in order (each with its neighbours). */
export function buildSessionIndexTexts(options: { turns: readonly TurnForIndex[]; time?: number }): string[] {
  const { turns, time } = options;
  return turns.map((turn, i) => buildTurnIndexText({ turn, previous: turns[i - 1], next: turns[i + 1], time }));
}
