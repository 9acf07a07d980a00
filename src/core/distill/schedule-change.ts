/**
 * A recurring thing moved to another time: "Maya's swim lessons are saturdays at 9am" → "maya's
 * swimming got moved to sunday 10am", "breakfast for the guests is 8 to half 9" → "we're doing
 * breakfast 7:30 to 9 now, the walkers want to get away early". When other memories share a word
 * with the change ("Maya is 7", "the walkers book the twin rooms"), the words around the change
 * cannot tell which one it replaces. The thing's own words (its first word, or two of its words),
 * a time of the same kind on both sides that differs, and a change marker can; and only when one
 * current memory qualifies.
 */
import { isAdditive, marksChange, subjectWords } from './change-target.js';
import { isWeekday, weekdays } from './grounding-words.js';
import type { CurrentItem } from './reconcile-offline.js';
import { fold } from './spanish.js';

/** A clock time or a span of hours: "9am", "7:30", "8 to half 9", "8-4", "a las 10". */
const CLOCK =
  /\b\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|h)\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}(?:[:.]\d{2})?\s*(?:-|to|a)\s*(?:half\s+)?\d{1,2}(?:[:.]\d{2})?\b|\ba las \d{1,2}\b/gi;

/** When a recurring thing happens, by kind: its weekdays and its clock times (today or a count is no schedule). */
function whenOf(text: string): { days: string; clock: string } {
  const clock = [...new Set([...fold(text).matchAll(CLOCK)].map((m) => m[0].replace(/\s+/g, ' ')))];
  // "tue", "tuesdays", "martes" and "周二" are one day (grounding-words.ts reads them for every check).
  return { days: [...weekdays(text)].sort().join(' '), clock: clock.sort().join(' ') };
}

const TIME_WORD = /^(?:\d.*|week\w*|morning|afternoon|evening|night|am|pm|half)$/;
const isTimeWord = (w: string): boolean => TIME_WORD.test(w) || isWeekday(w);

/** The thing's words: content words with the times taken out. */
function thingWords(text: string): string[] {
  return [...subjectWords(text)].filter((w) => w.length >= 4 && !isTimeWord(w));
}

/** "swim" and "swimming", "book" and "booking": one word is the start of the other. */
const sameWord = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);

/** The one current memory `text` moves to another time, if there is exactly one. */
export function rescheduledMemory(options: { text: string; memories: readonly CurrentItem[] }): CurrentItem | undefined {
  const { text } = options;
  const when = whenOf(text);
  if ((when.days === '' && when.clock === '') || !marksChange(text) || isAdditive(text)) return undefined;
  const words = thingWords(text);
  const holders = options.memories.filter((m) => {
    const theirs = whenOf(m.text);
    // Moved to another day, or to another hour: the same kind of time on both sides, changed.
    const moved =
      (when.days !== '' && theirs.days !== '' && when.days !== theirs.days) ||
      (when.clock !== '' && theirs.clock !== '' && when.clock !== theirs.clock);
    if (!moved) return false;
    // The thing itself, not a word it shares with another: its first word, or two of its words.
    const mine = thingWords(m.text);
    const shared = mine.filter((x) => words.some((w) => sameWord(w, x)));
    return shared.length >= 2 || (shared.length === 1 && shared[0] === mine[0]);
  });
  return holders.length === 1 ? holders[0] : undefined;
}
