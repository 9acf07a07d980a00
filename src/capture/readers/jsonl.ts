import { stat } from 'node:fs/promises';
import { basename, dirname, relative } from 'node:path';
import {
  CONVERSATION_ROLES,
  type ConversationRole,
  type DiscoverOptions,
  type LineResult,
  type TranscriptFile,
  type TranscriptParser,
  type TranscriptReader,
} from '../../spec/conversation.js';
import { InvalidArgumentError } from '../../errors/index.js';
import {
  IGNORED,
  MALFORMED,
  blockText,
  entryHash,
  makeMessage,
  one,
  parseJsonLine,
  str,
  toMillis,
  walkFiles,
  type MessageBase,
} from './common.js';

/**
 * Generic JSONL for custom agents: one `{role, content, timestamp?, id?}` per line. A line without
 * an id is named by a hash of its bytes, so re-reading it never records it twice.
 *
 * A given id is kept as the entry id's prefix, followed by a fingerprint of the message (role,
 * time, text): custom agents reuse ids (one id per turn for both the question and the answer, or
 * counters that restart), and L0 drops a second message with an entry id it has seen as a
 * duplicate. Whether an id was used before cannot be known from the lines of one incremental run,
 * so every id gets the fingerprint; the same line always yields the same entry id, so re-reading
 * stays idempotent.
 */
/** Longer given ids are replaced by their hash (an id is a handle, not content). */
const MAX_ID_CHARS = 128;
const ROLE_ALIASES: Record<string, ConversationRole> = {
  human: 'user',
  ai: 'assistant',
  model: 'assistant',
  toolResult: 'tool',
  function: 'tool',
};

export const jsonlReader: TranscriptReader = {
  host: 'jsonl',
  defaultRoot: () => [],
  async discover(options: DiscoverOptions): Promise<TranscriptFile[]> {
    if (!options.root) {
      throw new InvalidArgumentError({
        argument: 'root',
        message: 'The generic JSONL source needs a path: pass the file or folder holding the *.jsonl transcripts.',
      });
    }
    const root = options.root;
    const agentId = options.agentId ?? 'jsonl';
    let info;
    try {
      info = await stat(root);
    } catch {
      return [];
    }
    const paths = info.isFile() ? [root] : await walkFiles(root, (n) => n.endsWith('.jsonl'));
    const base = info.isFile() ? dirname(root) : root;
    return paths.map((path) => {
      const sessionId = relative(base, path).replace(/\.jsonl$/, '') || basename(path, '.jsonl');
      return { host: 'jsonl', path, agentId, sessionId, sessionKey: `jsonl:${agentId}:${sessionId}` };
    });
  },
  createParser(file: TranscriptFile): TranscriptParser {
    const base: MessageBase = { host: 'jsonl', agentId: file.agentId, sessionKey: file.sessionKey, sessionId: file.sessionId };
    return { line: (text) => parseGenericLine(base, text), end: () => [] };
  },
};

export function parseGenericLine(base: MessageBase, raw: string): LineResult {
  const line = parseJsonLine(raw);
  if (!line) return MALFORMED;
  const rawRole = str(line.role);
  if (!rawRole) return IGNORED;
  const role = (CONVERSATION_ROLES as readonly string[]).includes(rawRole) ? (rawRole as ConversationRole) : ROLE_ALIASES[rawRole];
  if (!role) return IGNORED;
  const id = line.id;
  const given = typeof id === 'string' && id ? id : typeof id === 'number' && Number.isFinite(id) ? String(id) : undefined;
  const timestamp = toMillis(line.timestamp ?? line.ts ?? line.createdAt, 0);
  const text = blockText(line.content ?? line.text);
  return one(
    makeMessage(base, {
      entryId:
        given === undefined
          ? entryHash(raw)
          : `${given.length > MAX_ID_CHARS ? entryHash(given) : given}#${entryHash(`${role}\n${timestamp}\n${text}`).slice(0, 8)}`,
      parentId: str(line.parentId) ?? null,
      timestamp,
      role,
      text,
    }),
  );
}
