/**
 * Reads one host transcript for `strata journal flush --transcript`: detects the format (Claude
 * Code, Codex, OpenClaw, generic JSONL), parses it with the capture readers and cleans it with the
 * capture cleaner, so injected memory blocks, host noise and secrets never reach the journal's LLM.
 * Lives in capture (not core) because core never imports the readers.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidArgumentError } from '../errors/index.js';
import type { JournalMessage } from '../core/journal/options.js';
import type { ConversationMessage, TranscriptFile } from '../spec/conversation.js';
import { createCleaner, type CleanOptions, type CleanStats } from './clean/index.js';
import { isNotFound } from '../util/fs-util.js';
import { readCompleteLines, type LineChunk } from './line-reader.js';
import { READERS, SOURCE_KINDS, type SourceKind } from './readers/index.js';
import { isObject, parseJsonLine } from './readers/common.js';
import { readZstdLines } from './zstd-lines.js';

export interface ReadTranscriptOptions {
  path: string;
  /** Recorded on the messages; default the file name without `.jsonl`. */
  sessionId?: string;
  agentId?: string;
  /** Skip detection. */
  format?: SourceKind;
  clean?: CleanOptions;
  abortSignal?: AbortSignal;
}

export interface TranscriptForJournal {
  format: SourceKind;
  sessionId: string;
  messages: JournalMessage[];
  stats: CleanStats;
}

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context']);
const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'summary',
  'progress',
  'file-history-snapshot',
  'queue-operation',
  'system',
  'attachment',
]);
const DETECT_LINES = 50;

function chunks(path: string): AsyncGenerator<LineChunk> {
  return path.endsWith('.zst') ? readZstdLines({ path }) : readCompleteLines({ path, start: 0 });
}

/** The format of the first recognisable line; OpenClaw for compressed archives (only it writes them). */
export async function detectTranscriptFormat(path: string): Promise<SourceKind | undefined> {
  if (path.endsWith('.zst')) return 'openclaw';
  let seen = 0;
  for await (const chunk of chunks(path)) {
    for (const line of chunk.lines) {
      if (line.text === undefined) continue;
      const entry = parseJsonLine(line.text);
      if (!entry) continue;
      const type = typeof entry.type === 'string' ? entry.type : undefined;
      if (type && CODEX_TYPES.has(type) && isObject(entry.payload)) return 'codex';
      if (type === 'session' || (type === 'message' && isObject(entry.message))) return 'openclaw';
      if (type && CLAUDE_TYPES.has(type) && (typeof entry.uuid === 'string' || typeof entry.sessionId === 'string')) return 'claude-code';
      if (!type && typeof entry.role === 'string') return 'jsonl';
      if (++seen >= DETECT_LINES) return undefined;
    }
  }
  return undefined;
}

export async function readTranscriptForJournal(options: ReadTranscriptOptions): Promise<TranscriptForJournal> {
  try {
    if (!(await stat(options.path)).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new InvalidArgumentError({
      argument: 'transcript',
      message: isNotFound(error)
        ? `Transcript ${options.path} does not exist; pass the path of the session's JSONL file.`
        : `Transcript ${options.path} is not a readable file.`,
      cause: error,
    });
  }
  const format = options.format ?? (await detectTranscriptFormat(options.path));
  if (!format) {
    throw new InvalidArgumentError({
      argument: 'transcript',
      message: `Cannot tell the format of ${options.path}: expected a ${SOURCE_KINDS.join(', ')} transcript (JSON lines).`,
    });
  }
  const sessionId = options.sessionId ?? basename(options.path).replace(/\.jsonl(\..*)?$/, '');
  const file: TranscriptFile = {
    host: format,
    path: options.path,
    agentId: options.agentId ?? format,
    sessionId,
    sessionKey: `${format}:${sessionId}`,
    ...(options.path.endsWith('.zst') ? { compressed: 'zstd' as const } : {}),
  };
  const parser = READERS[format].createParser(file);
  const cleaner = createCleaner(options.clean);
  const byId = new Map<string, JournalMessage>();
  const take = (messages: ConversationMessage[]) => {
    for (const m of messages) {
      const cleaned = cleaner.clean(m);
      if (cleaned.keep && !byId.has(m.entryId))
        byId.set(m.entryId, { id: m.entryId, role: m.role, text: cleaned.text, timestamp: m.timestamp });
    }
  };
  for await (const chunk of chunks(options.path)) {
    options.abortSignal?.throwIfAborted();
    for (const line of chunk.lines) if (line.text !== undefined) take(parser.line(line.text).messages);
  }
  take(parser.end());
  return { format, sessionId, messages: [...byId.values()], stats: cleaner.stats };
}
