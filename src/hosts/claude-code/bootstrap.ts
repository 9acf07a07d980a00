/**
 * The SessionStart context: the agent's most important and most recent memories as one escaped
 * `<relevant-memories>` block. (Stand-in until the layered context bootstrap, persona + scenes,
 * exists; it then replaces this.)
 */
import type { MemoryRecord } from '../../spec/index.js';
import { formatContextBlock } from '../../core/recall/context-format.js';

/** Claude Code saves `additionalContext` over 10,000 characters to a file and shows a preview only. */
export const MAX_CONTEXT_CHARS = 10_000;

export interface BootstrapEngine {
  list(options: { scopes: string[]; limit?: number }): Promise<MemoryRecord[]>;
}

export async function buildSessionContext(options: {
  engine: BootstrapEngine;
  scopes: string[];
  now?: Date;
  /** Per selection: this many by importance plus this many by recency (deduplicated). */
  perKind?: number;
  maxChars?: number;
}): Promise<string> {
  const perKind = options.perKind ?? 15;
  const maxChars = Math.min(options.maxChars ?? MAX_CONTEXT_CHARS, MAX_CONTEXT_CHARS);
  // Newest first; importance is ranked within this window so a huge store stays cheap to read.
  const recent = await options.engine.list({ scopes: options.scopes, limit: 500 });
  const important = [...recent].sort((a, b) => b.importance - a.importance).slice(0, perKind);
  const seen = new Set<string>();
  const picked: MemoryRecord[] = [];
  for (const record of [...important, ...recent.slice(0, perKind)]) {
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    picked.push(record);
  }
  const results = picked.map((record) => ({ record }));
  // Token estimates err high, but a CJK-heavy block could still exceed the character cap: shrink until it fits.
  for (let maxTokens = Math.floor(maxChars / 4); maxTokens >= 50; maxTokens = Math.floor(maxTokens * 0.8)) {
    const block = formatContextBlock({ results, maxTokens, now: options.now ?? new Date() });
    if (block.length <= maxChars) return block;
  }
  return '';
}
