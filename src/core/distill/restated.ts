import { tokenize } from '../recall/tokens.js';
import { statesDifferentFacts } from '../write/changed-fact.js';

/**
 * A compaction summary retells the session, often twice (its narrative and its "errors and fixes"
 * part): "BFG installation failed due to OpenJDK download lock." and, further down, "BFG installation
 * was blocked by concurrent OpenJDK download." Offline there is no model to see that these are one
 * lesson, and their vectors sit below the near-duplicate threshold, so rule capture drops a summary
 * statement whose content words are mostly those of one already taken from the same session.
 */
const STOP = new Set(
  'the and for are was were has had have with not but its it this that these those from into onto than then when what which who does doesn don didn can cannot could should would will just also only very like due via per'.split(
    ' ',
  ),
);

function contentWords(text: string): Set<string> {
  return new Set(tokenize(text).filter((w) => (w.length > 2 || /\d/.test(w)) && !STOP.has(w)));
}

/**
 * Whether `a` and `b` say mostly the same thing: 3+ shared content words, 60 % of the shorter's, and
 * no other number, date, name or negation (a changed fact is news, not a retelling).
 */
export function restates(a: string, b: string): boolean {
  if (statesDifferentFacts(a, b)) return false;
  const wa = contentWords(a);
  const wb = contentWords(b);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared >= 3 && shared / Math.min(wa.size, wb.size) >= 0.6;
}
