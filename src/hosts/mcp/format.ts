/** Compact, model-friendly shapes for tool and API output (recall results stay small: hosts cap output). */
import type { MemoryRecord } from '../../spec/memory-record.js';
import type { EngineStats } from '../../core/engine/types.js';
import type { RecallHit } from '../../core/recall/types.js';

export function compactRecord(r: MemoryRecord) {
  return {
    id: r.id,
    text: r.text,
    scope: r.scope,
    category: r.category,
    importance: r.importance,
    tags: r.tags,
    validFrom: r.validFrom,
    ...(r.validTo ? { validTo: r.validTo } : {}),
  };
}

export function compactHit(h: RecallHit) {
  return { ...compactRecord(h.record), score: Number(h.score.toFixed(4)) };
}

/** Store stats seen through the caller's scopes: counts of scopes it cannot read are not shown. */
export function scopedStats(stats: EngineStats, scopes: readonly string[], visible: number) {
  const byScope = Object.fromEntries(scopes.map((s) => [s, stats.byScope[s] ?? 0]));
  return { memories: visible, byScope, embedder: stats.embedder, store: stats.store };
}
