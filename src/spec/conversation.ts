/**
 * Conversation (layer L0) model: every transcript source is normalised to `ConversationMessage`;
 * the L0 log (`l0-log.ts`) stores `L0Record`s; transcript readers are specified here, the
 * conversation index in `conversation-index.ts`. Types only: implementations live in src/capture
 * and src/backends.
 */

export const CONVERSATION_HOSTS = ['openclaw', 'claude-code', 'codex', 'jsonl', 'live'] as const;
export type ConversationHost = (typeof CONVERSATION_HOSTS)[number];

export const CONVERSATION_ROLES = ['user', 'assistant', 'tool', 'system', 'summary'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

export interface ToolCallSummary {
  id: string;
  name: string;
  /** Arguments as JSON text, truncated. */
  args: string;
}

export interface ToolResultSummary {
  callId: string;
  /** Result text, truncated. */
  text: string;
  isError: boolean;
}

export interface MessageFlags {
  /** Context a host or plugin injected (hook context, runtime context, recalled memories). */
  injected?: boolean;
  /** Host bookkeeping, not conversation (Claude Code `isMeta`, Codex environment boilerplate). */
  meta?: boolean;
  /** A compaction or branch summary: restates earlier content. */
  compactionSummary?: boolean;
  /** A subagent / sidechain turn. */
  sidechain?: boolean;
  /** OpenClaw's synthetic copy of a reply delivered to a channel. */
  deliveryMirror?: boolean;
}

/** One message, whatever host wrote it. */
export interface ConversationMessage {
  host: ConversationHost;
  agentId: string;
  /** Stable conversation identity across session ids (e.g. OpenClaw `agent:main:main`). */
  sessionKey: string;
  sessionId: string;
  /** Unique within (host, agentId, sessionId); the dedupe key. */
  entryId: string;
  parentId: string | null;
  /** Epoch milliseconds. */
  timestamp: number;
  role: ConversationRole;
  text: string;
  toolCalls: ToolCallSummary[];
  toolResults: ToolResultSummary[];
  flags: MessageFlags;
}

/** One line of `<home>/conversations/YYYY-MM-DD.jsonl`. */
export interface L0Record {
  sessionKey: string;
  sessionId: string;
  agentId: string;
  host: ConversationHost;
  /** The message's entry id. */
  id: string;
  role: ConversationRole;
  content: string;
  /** Epoch milliseconds of the message. */
  timestamp: number;
  /** ISO time the record was appended to the log (time-partitioned logs rely on it). */
  recordedAt: string;
}

/** One transcript file a reader found. */
export interface TranscriptFile {
  host: ConversationHost;
  path: string;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  /** Archived (reset/deleted/backup) or a subagent file. */
  archived?: boolean;
  /** A compressed archive: read whole (never resumed mid-file). */
  compressed?: 'zstd';
}

export interface DiscoverOptions {
  /** Root folder (state dir, config dir, codex home or a JSONL folder); default from env/home. */
  root?: string;
  includeArchives?: boolean;
  includeSubagents?: boolean;
  /** Agent id to record (hosts without agents) or to restrict to (OpenClaw). */
  agentId?: string;
  env?: Record<string, string | undefined>;
}

/** Why a line produced no message. Counted, never thrown. */
export type LineSkipReason = 'malformed' | 'invalid-utf8' | 'oversized' | 'ignored-type';

export interface LineResult {
  messages: ConversationMessage[];
  skipped?: LineSkipReason;
}

/**
 * Parses one file's lines in order. Stateful (e.g. Claude Code groups one assistant message's
 * lines), so a new parser is made per file and per read.
 */
export interface TranscriptParser {
  line(text: string): LineResult;
  /** End of the read: returns messages still held open. */
  end(): ConversationMessage[];
}

/** One source format: finds its files and parses their lines. Byte streaming is shared. */
export interface TranscriptReader {
  readonly host: ConversationHost;
  defaultRoot(env: Record<string, string | undefined>): string[];
  discover(options: DiscoverOptions): Promise<TranscriptFile[]>;
  createParser(file: TranscriptFile): TranscriptParser;
}

/** One conversation search result (the engine's answer: fused over text and vectors). */
export interface ConversationSearchHit {
  record: L0Record;
  /** Higher is better, in [0, 1]: fused relevance x question-form x query-date factors. */
  score: number;
  /** The parts of `score`: calibrated lexical, cosine, fused, and the two factors. */
  scores?: { lexical?: number; vector?: number; fused: number; form: number; date: number };
}
