import { replacedNames } from './change-target.js';
import { normalizeStatement } from './normalize-statement.js';

/**
 * "we binned bitrise. gym app builds go through github actions now": the first sentence says what
 * was dropped and teaches nothing alone, the second is what gets stored, and without the first the
 * memory it replaces ("the gym app client insists on bitrise for CI") stays current. A short
 * sentence next to a stored one that names a dropped thing, and is not stored itself, is kept in
 * front of it, so the memory says the change and offline reconciliation sees what it ends.
 */
const MAX_CONTEXT_WORDS = 10;

export function withDroppedContext<T extends { text: string; order: number }>(candidates: T[], sentences: readonly string[]): T[] {
  const stored = new Set(candidates.map((c) => c.order));
  const context = (order: number): string | undefined => {
    const s = sentences[order];
    if (s === undefined || stored.has(order) || /\?/.test(s)) return undefined;
    if (s.trim().split(/\s+/).length > MAX_CONTEXT_WORDS || replacedNames(s).length === 0) return undefined;
    return normalizeStatement(s);
  };
  const used = new Set<number>();
  return candidates.map((c) => {
    if (replacedNames(c.text).length > 0) return c;
    const before = used.has(c.order - 1) ? undefined : context(c.order - 1);
    const after = before || used.has(c.order + 1) ? undefined : context(c.order + 1);
    if (before) used.add(c.order - 1);
    if (after) used.add(c.order + 1);
    if (before) return { ...c, text: `${before} ${c.text}` };
    if (after) return { ...c, text: `${c.text} ${after}` };
    return c;
  });
}
