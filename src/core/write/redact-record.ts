/**
 * Redaction at the boundary of each store: one function per stored shape, called where the shape
 * is written (memory store insert/update, history append, L0 append, journal/summary/scene/persona
 * file writes), so every string field is covered whatever path produced it — the text, and also
 * tags, source fields, ids and reasons, which callers never thought of as text.
 *
 * Identifier fields (session keys, message ids) keep a short hash of the original beside the
 * marker, so two different ids that both held a secret stay different (dedupe and provenance rely
 * on them) while the secret itself is gone.
 */
import { createHash } from 'node:crypto';
import type { L0Record } from '../../spec/conversation.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { contentHash } from './normalize.js';
import { redactSecrets } from './redact.js';

// The same string passes several boundaries on one write (prepare, store, history): remember recent
// results, and that a result is itself clean, so each string is scanned about once.
const CACHE_SIZE = 4096;
const cache = new Map<string, string>();

/** `text` with every secret replaced by a marker. */
export function redactText(text: string): string {
  if (text.length < 6) return text;
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const out = redactSecrets(text).text;
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(text, out);
  if (out !== text) cache.set(out, out);
  return out;
}

/** Records that `text` is already redacted output (redaction is idempotent), so boundaries skip rescanning it. */
export function markRedacted(text: string): void {
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(text, text);
}

/** An identifier with secrets replaced; a changed id gets `#<hash>` of the original so ids stay distinct. */
export function redactId(id: string): string {
  const result = redactSecrets(id);
  if (result.count === 0) return id;
  return `${result.text}#${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}

const ids = (values: readonly string[] | undefined): string[] | undefined => values?.map(redactId);

/** A memory record (or stored row) with text, tags and source fields redacted; contentHash follows the stored text. */
export function redactMemoryRecord<T extends MemoryRecord>(record: T): T {
  const text = redactText(record.text);
  const tags = record.tags.map(redactText);
  const source = record.source;
  const next = {
    ...record,
    text,
    tags,
    source: {
      ...source,
      ...(source.agentId !== undefined ? { agentId: redactId(source.agentId) } : {}),
      ...(source.sessionKey !== undefined ? { sessionKey: redactId(source.sessionKey) } : {}),
      ...(source.messageIds !== undefined ? { messageIds: ids(source.messageIds) } : {}),
    },
  };
  // Always recomputed: the hash must describe the stored text even for rows written before redaction.
  next.contentHash = contentHash(text);
  return next;
}

/** An L0 record with content, session and message ids redacted (agent ids are validated, not redacted). */
export function redactL0Record(record: L0Record): L0Record {
  return {
    ...record,
    content: redactText(record.content),
    sessionKey: redactId(record.sessionKey),
    sessionId: redactId(record.sessionId),
    id: redactId(record.id),
  };
}

/**
 * Every string inside a JSON-like value, redacted (object keys kept). For stored documents whose
 * shape is not the engine's own: history entries, journal and summary state, LLM-written files.
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v);
    return out as T;
  }
  return value;
}
