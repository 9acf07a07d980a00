import type { ConversationHost, TranscriptReader } from '../../spec/conversation.js';
import { claudeCodeReader } from './claude-code.js';
import { codexReader } from './codex.js';
import { jsonlReader } from './jsonl.js';
import { openClawReader } from './openclaw.js';

export { claudeCodeReader, claudeConfigDirs } from './claude-code.js';
export { codexReader, codexHomes, parseCodexLine } from './codex.js';
export { jsonlReader, parseGenericLine } from './jsonl.js';
export { classifyOpenClawFile, openClawReader, openClawStateDirs, parseOpenClawLine } from './openclaw.js';

export type SourceKind = Exclude<ConversationHost, 'live'>;
export const SOURCE_KINDS: readonly SourceKind[] = ['openclaw', 'claude-code', 'codex', 'jsonl'];

export const READERS: Readonly<Record<SourceKind, TranscriptReader>> = {
  openclaw: openClawReader,
  'claude-code': claudeCodeReader,
  codex: codexReader,
  jsonl: jsonlReader,
};
