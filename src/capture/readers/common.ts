import { hash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage, ConversationRole, LineResult, MessageFlags } from '../../spec/conversation.js';

/** Tool arguments and results are kept short: L0 is for conversation, not tool dumps. */
export const TOOL_TEXT_LIMIT = 2_000;

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function truncate(text: string, limit = TOOL_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…[truncated ${text.length - limit} chars]`;
}

export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** Short stable key of a text, for internal names (state files, head checks); never a stored message id. */
export function hashId(text: string): string {
  // One-shot hash: several times cheaper than createHash() on the per-message hot path.
  return hash('sha1', text, 'base64url').slice(0, 16);
}

/**
 * Stable message id for lines that carry none (Codex, generic JSONL, pi v1, queued messages): 64
 * bits in hex. Not base64url: mixed-case random text is what an unlabelled API key looks like, and
 * 72 % of such ids were replaced by a redaction marker wherever they were stored as provenance.
 */
export function entryHash(text: string): string {
  return hash('sha1', text, 'hex').slice(0, 16);
}

/** Epoch ms from a number (ms, or seconds when small) or an ISO string; `fallback` otherwise. */
export function toMillis(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? Math.round(value * 1000) : Math.round(value);
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

/** Text of `content` given as a string or as blocks; `textTypes` names the block types holding text. */
export function blockText(content: unknown, textTypes: readonly string[] = ['text']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block)) {
      const type = str(block.type);
      if (type && textTypes.includes(type)) {
        const text = str(block.text);
        if (text) parts.push(text);
      } else if (type === 'image' || type === 'input_image') parts.push('[image]');
    }
  }
  return parts.join('\n');
}

export function parseJsonLine(text: string): Json | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed[0] !== '{') return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface MessageBase {
  host: ConversationMessage['host'];
  agentId: string;
  sessionKey: string;
  sessionId: string;
}

export function makeMessage(
  base: MessageBase,
  fields: {
    entryId: string;
    parentId?: string | null;
    timestamp: number;
    role: ConversationRole;
    text: string;
    flags?: MessageFlags;
  } & Partial<Pick<ConversationMessage, 'toolCalls' | 'toolResults'>>,
): ConversationMessage {
  return {
    host: base.host,
    agentId: base.agentId,
    sessionKey: base.sessionKey,
    sessionId: base.sessionId,
    entryId: fields.entryId,
    parentId: fields.parentId ?? null,
    timestamp: fields.timestamp,
    role: fields.role,
    text: fields.text,
    toolCalls: fields.toolCalls ?? [],
    toolResults: fields.toolResults ?? [],
    flags: fields.flags ?? {},
  };
}

export const MALFORMED: LineResult = Object.freeze({ messages: [], skipped: 'malformed' }) as LineResult;
export const IGNORED: LineResult = Object.freeze({ messages: [], skipped: 'ignored-type' }) as LineResult;

export function one(message: ConversationMessage): LineResult {
  return { messages: [message] };
}

/** Directory entries, or none when the folder is missing or unreadable (sources come and go). */
export async function listDir(path: string): Promise<Array<{ name: string; isDir: boolean; isFile: boolean }>> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.map((e) => ({ name: e.name, isDir: e.isDirectory(), isFile: e.isFile() }));
  } catch {
    return [];
  }
}

export async function walkFiles(root: string, accept: (name: string) => boolean, maxDepth = 6): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    for (const entry of await listDir(dir)) {
      const full = join(dir, entry.name);
      if (entry.isDir && depth < maxDepth) await visit(full, depth + 1);
      else if (entry.isFile && accept(entry.name)) out.push(full);
    }
  };
  await visit(root, 0);
  return out.sort();
}

export function homeDir(env: Record<string, string | undefined>): string {
  return env.HOME ?? env.USERPROFILE ?? homedir();
}
