import { replacedNames } from './change-target.js';
import { normalizeStatement } from './normalize-statement.js';

/**
 * "we binned bitrise. gym app builds go through github actions now": the first sentence says what
 * was dropped and teaches nothing alone, the second is what gets stored, and without the first the
 * memory it replaces ("the gym app client insists on bitrise for CI") stays current. A short
 * sentence just before a stored one that names a dropped thing, and is not stored itself, is kept
 * in front of it, so the memory says the change and offline reconciliation sees what it ends.
 * Only the sentence before: told after the new state ("pnpm now. deleted the yarn.lock"), it is
 * mostly a detail of the work that would blur the reading of the change itself.
 */
const MAX_CONTEXT_WORDS = 10;

export function withDroppedContext<T extends { text: string; order: number }>(candidates: T[], sentences: readonly string[]): T[] {
  const stored = new Set(candidates.map((c) => c.order));
  return candidates.map((c) => {
    const before = sentences[c.order - 1];
    if (before === undefined || stored.has(c.order - 1) || /\?/.test(before)) return c;
    if (before.trim().split(/\s+/).length > MAX_CONTEXT_WORDS) return c;
    // A sentence naming its own dropped thing is read alone.
    if (replacedNames(before).length === 0 || replacedNames(c.text).length > 0) return c;
    return { ...c, text: `${normalizeStatement(before)} ${c.text}` };
  });
}
