/**
 * A version something is on at present: "android builds target sdk 33 right now", "all our RN
 * projects are on expo sdk 49 atm". The gate reads "right now" and "atm" as a passing state (a build
 * that is red right now), but a version holds until it is changed, and a change is what
 * supersession records.
 */
import { isPassingState } from './task-signals.js';

/** "Right now", "atm", "currently", "for now": a marker that what it qualifies holds at present. */
const PRESENT_MARK = /\s*\b(?:right now|at the moment|atm|currently|for now|as of now|for the time being)\b/gi;
/** Words a number follows when it is not a version: places, counts, measures. */
const NOT_A_VERSION =
  /\b(?:port|line|page|step|day|week|chapter|(?<!api )level|round|attempt|episode|floor|room|row|column|item|issue|ticket|pr|tab|slide|minute|hour|about|around|roughly|nearly|almost|over|under|than|of|to|by)\s*$/i;
/** A version after what something is on, runs, targets or uses: "on expo sdk 49", "target sdk 33", "on postgres 14", "react 17". */
const PINNED_VERSION =
  /\b(?:on|at|targets?|targeting|uses?|using|runs?(?: on)?|running|is|are|'s|pinned to|stuck on|locked to)\s+((?:the\s+)?(?:[a-z][\w.+#-]*\s+){1,3}?)v?\d+(?:\.\d+){0,2}(?:\s*lts)?\b(?!\s*(?:%|percent|k\b|kg|km|mi\b|miles|mins?|minutes|secs?|seconds|ms\b|hours?|hrs?|days?|weeks?|months?|years?|gb|mb|kb|tb|fps|x\b|times|people|users|pounds|dollars|euros|bucks|quid|degrees|°))/i;

/** Whether a present marker qualifies a version something is on; not a place in a list, a count or a measure. */
export function pinsVersionNow(text: string): boolean {
  const without = text.replace(PRESENT_MARK, ' ').replace(/\s+/g, ' ').trim();
  const m = PINNED_VERSION.exec(without);
  return without !== text.replace(/\s+/g, ' ').trim() && m !== null && !NOT_A_VERSION.test(m[1] ?? '') && !isPassingState(without);
}

/**
 * The statement as stored: without the present marker when it qualifies a version ("Android builds
 * target sdk 33."), since the memory's start date says when, and reconciliation reads "now" as news
 * of a change.
 */
export function withoutPresentMark(text: string): string {
  if (!pinsVersionNow(text)) return text;
  return text
    .replace(PRESENT_MARK, '')
    .replace(/^\s*,\s*/, '')
    .replace(/,\s*(?=[,.;!?]|$)/g, '')
    .trim();
}
