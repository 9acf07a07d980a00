/**
 * Exports of the systems Strata replaces, turned into Strata import lines (then imported through
 * the one validated, idempotent import path). Timestamps and scopes are kept; the original id
 * stays as a tag (`mem0:<id>`, `lancedb-pro:<id>`) so a memory can be traced back.
 *
 * - mem0: `Memory.get_all()` / `client.get_all()` output (`{ results: [...] }`, a bare array, or
 *   JSONL) with `memory`, `created_at`, `updated_at`, `user_id`, `agent_id`, `run_id`, `metadata`,
 *   `categories`; OpenMemory's export uses `content` and `{ memories: [...] }`.
 * - memory-lancedb-pro: `openclaw memory-pro export` (`{ version, exportedAt, count, filters,
 *   memories: [{ id, text, category, scope, importance, timestamp, metadata }] }`), where
 *   `timestamp` is epoch ms and `metadata` a JSON string.
 */
import { isValidScope } from '../../core/scope.js';
import type { MemoryCategory } from '../../spec/memory-record.js';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import type { RememberInput } from '../../core/engine/types.js';

export const MIGRATION_SOURCES = ['mem0', 'memory-lancedb-pro'] as const;
export type MigrationSource = (typeof MIGRATION_SOURCES)[number];

type Row = Record<string, unknown>;

/** A Strata export line: what `remember` takes, plus the times and counters an import keeps. */
export interface StrataLine extends Omit<RememberInput, 'source'> {
  source: { kind: 'import'; agentId?: string; sessionKey?: string };
  createdAt?: string;
  updatedAt?: string;
  accessCount?: number;
  lastAccessedAt?: string | null;
}

/** The rows of a JSON document or a JSONL file, whichever the text is. */
export function parseRows(text: string, source: MigrationSource): Row[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    const doc = JSON.parse(trimmed) as unknown;
    if (Array.isArray(doc)) return doc as Row[];
    if (doc && typeof doc === 'object') {
      const o = doc as Row;
      for (const key of ['results', 'memories', 'items', 'data']) if (Array.isArray(o[key])) return o[key] as Row[];
      return [o];
    }
  } catch {
    // not one JSON document: JSONL
  }
  return trimmed
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Row;
      } catch {
        throw new Error(`line ${i + 1} of the ${source} export is not JSON`);
      }
    });
}

function isoOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e11 ? value * 1000 : value).toISOString();
  if (typeof value === 'string' && value.trim() !== '') {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return new Date(t).toISOString();
    const n = Number(value);
    if (Number.isFinite(n)) return isoOf(n);
  }
  return undefined;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const num01 = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : undefined);

/** A scope id part must be letters, digits and . _ @ - / :; anything else becomes '-'. */
function scopeOf(kind: 'agent' | 'user' | 'session' | 'custom', id: string): string | undefined {
  const clean = id
    .replace(/[^A-Za-z0-9._@\-/:]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  const scope = `${kind}:${clean}`;
  return clean && isValidScope(scope) ? scope : undefined;
}

function categoryOf(value: unknown): MemoryCategory | undefined {
  const c = str(value)?.toLowerCase();
  if (!c) return undefined;
  if ((MEMORY_CATEGORIES as readonly string[]).includes(c)) return c as MemoryCategory;
  const map: Record<string, MemoryCategory> = {
    reflection: 'lesson',
    preferences: 'preference',
    facts: 'fact',
    decisions: 'decision',
    person: 'entity',
    people: 'entity',
    goal: 'other',
  };
  return map[c];
}

function tagOf(prefix: string, id: unknown): string[] {
  const s = str(typeof id === 'number' ? String(id) : id);
  return s ? [`${prefix}:${s}`.slice(0, 64)] : [];
}

export function fromMem0(row: Row): StrataLine | undefined {
  const text = str(row.memory) ?? str(row.content) ?? str(row.text);
  if (!text) return undefined;
  const agent = str(row.agent_id);
  const user = str(row.user_id);
  const run = str(row.run_id);
  // Whose memory it is: an agent's stays the agent's, a user's the user's (a run of a user is
  // that user's, with the run kept as its session); a bare run becomes a session scope.
  const scope = (agent && scopeOf('agent', agent)) ?? (user && scopeOf('user', user)) ?? (run && scopeOf('session', run)) ?? 'global';
  const metadata = (row.metadata && typeof row.metadata === 'object' ? row.metadata : {}) as Row;
  const categories = Array.isArray(row.categories) ? row.categories : [];
  const created = isoOf(row.created_at) ?? isoOf(row.createdAt);
  return {
    text,
    scope,
    category: categories.map(categoryOf).find((c) => c !== undefined) ?? categoryOf(metadata.category),
    importance: num01(metadata.importance),
    tags: [
      'from:mem0',
      ...tagOf('mem0', row.id),
      ...categories
        .filter((c): c is string => typeof c === 'string')
        .slice(0, 8)
        .map((c) => c.slice(0, 64)),
    ],
    source: { kind: 'import', ...(agent ? { agentId: agent } : {}), ...(run ? { sessionKey: run } : {}) },
    createdAt: created,
    updatedAt: isoOf(row.updated_at) ?? isoOf(row.updatedAt) ?? created,
    validFrom: created,
  };
}

function lancedbProScope(value: unknown): string {
  const s = str(value) ?? 'global';
  if (isValidScope(s)) return s;
  // e.g. `reflection:agent:main` or an unknown prefix: kept, readable, as a custom scope.
  return scopeOf('custom', s.replace(/:/g, '-')) ?? 'global';
}

export function fromLancedbPro(row: Row): StrataLine | undefined {
  const text = str(row.text);
  if (!text) return undefined;
  let metadata: Row = {};
  if (typeof row.metadata === 'string') {
    try {
      metadata = JSON.parse(row.metadata) as Row;
    } catch {
      metadata = {};
    }
  } else if (row.metadata && typeof row.metadata === 'object') metadata = row.metadata as Row;
  const created = isoOf(row.timestamp) ?? isoOf(row.createdAt);
  const scope = lancedbProScope(row.scope);
  return {
    text,
    scope,
    category: categoryOf(metadata.memory_category) ?? categoryOf(row.category),
    importance: num01(row.importance),
    confidence: num01(metadata.confidence),
    tags: ['from:memory-lancedb-pro', ...tagOf('lancedb-pro', row.id)],
    source: { kind: 'import', ...(scope.startsWith('agent:') ? { agentId: scope.slice('agent:'.length) } : {}) },
    createdAt: created,
    updatedAt: isoOf(metadata.updated_at) ?? created,
    validFrom: created,
    accessCount: typeof metadata.access_count === 'number' && metadata.access_count >= 0 ? Math.floor(metadata.access_count) : undefined,
    lastAccessedAt: isoOf(metadata.last_accessed_at) ?? null,
  };
}

export interface Converted {
  lines: string[];
  /** Rows with no text, by position (1-based). */
  skipped: number[];
}

/** Every row as one Strata JSONL line. */
export function convertExport(text: string, source: MigrationSource): Converted {
  const convert = source === 'mem0' ? fromMem0 : fromLancedbPro;
  const lines: string[] = [];
  const skipped: number[] = [];
  parseRows(text, source).forEach((row, i) => {
    const line = row && typeof row === 'object' ? convert(row) : undefined;
    if (line) lines.push(JSON.stringify(line));
    else skipped.push(i + 1);
  });
  return { lines, skipped };
}
