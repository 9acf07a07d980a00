import { basename, join } from 'node:path';
import type {
  DiscoverOptions,
  LineResult,
  MessageFlags,
  TranscriptFile,
  TranscriptParser,
  TranscriptReader,
} from '../../spec/conversation.js';
import {
  IGNORED,
  MALFORMED,
  blockText,
  entryHash,
  homeDir,
  isObject,
  makeMessage,
  one,
  parseJsonLine,
  str,
  toMillis,
  truncate,
  walkFiles,
  type MessageBase,
} from './common.js';
import { codexSessionDirs } from './layout.js';

/**
 * Codex CLI rollouts: `<codex home>/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`. Only
 * `response_item` lines are read: `event_msg` repeats the same text. Lines carry no ids and are
 * never rewritten, so a hash of the line is a stable entry id.
 */
export function codexHomes(env: Record<string, string | undefined>): string[] {
  return [env.CODEX_HOME ?? join(homeDir(env), '.codex')];
}

const UUID_TAIL = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const BOILERPLATE = /^\s*(<environment_context>|<user_instructions>|<permissions instructions>|<INSTRUCTIONS>|# AGENTS\.md instructions)/;
const isRollout = (name: string): boolean => name.startsWith('rollout-') && name.endsWith('.jsonl');

export const codexReader: TranscriptReader = {
  host: 'codex',
  defaultRoot: codexHomes,
  async discover(options: DiscoverOptions): Promise<TranscriptFile[]> {
    const roots = options.root ? [options.root] : codexHomes(options.env ?? process.env);
    const agentId = options.agentId ?? 'codex';
    const files: TranscriptFile[] = [];
    for (const root of roots) {
      const dirs: Array<[string, boolean]> = options.root
        ? await codexSessionDirs(root, options.includeArchives ?? false)
        : [
            [join(root, 'sessions'), false],
            ...(options.includeArchives ? [[join(root, 'archived_sessions'), true] as [string, boolean]] : []),
          ];
      for (const [dir, archived] of dirs) {
        for (const path of await walkFiles(dir, isRollout, 4)) {
          const stem = basename(path, '.jsonl');
          const sessionId = UUID_TAIL.exec(stem)?.[1] ?? stem;
          files.push({ host: 'codex', path, agentId, sessionId, sessionKey: `codex:${sessionId}`, ...(archived ? { archived } : {}) });
        }
      }
    }
    return files;
  },
  createParser(file: TranscriptFile): TranscriptParser {
    const base: MessageBase = { host: 'codex', agentId: file.agentId, sessionKey: file.sessionKey, sessionId: file.sessionId };
    return { line: (text) => parseCodexLine(base, text), end: () => [] };
  },
};

export function parseCodexLine(base: MessageBase, raw: string): LineResult {
  const line = parseJsonLine(raw);
  if (!line) return MALFORMED;
  const payload = line.payload;
  if (!isObject(payload)) return MALFORMED;
  const ts = toMillis(line.timestamp, 0);
  const entryId = typeof line.ordinal === 'number' ? `o${line.ordinal}` : entryHash(raw);
  const type = line.type;
  if (type === 'compacted') {
    return one(
      makeMessage(base, { entryId, timestamp: ts, role: 'summary', text: str(payload.message) ?? '', flags: { compactionSummary: true } }),
    );
  }
  if (type !== 'response_item') return IGNORED;
  switch (payload.type) {
    case 'message': {
      const role = str(payload.role);
      const text = blockText(payload.content, ['input_text', 'output_text', 'text']);
      if (role === 'user') {
        const flags: MessageFlags = BOILERPLATE.test(text) ? { meta: true, injected: true } : {};
        return one(makeMessage(base, { entryId, timestamp: ts, role: 'user', text, flags }));
      }
      if (role === 'assistant') return one(makeMessage(base, { entryId, timestamp: ts, role: 'assistant', text }));
      if (role === 'developer' || role === 'system') {
        return one(makeMessage(base, { entryId, timestamp: ts, role: 'system', text, flags: { meta: true } }));
      }
      return IGNORED;
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call': {
      const args = str(payload.arguments) ?? str(payload.input) ?? JSON.stringify(payload.action ?? {});
      const id = str(payload.call_id) ?? entryId;
      return one(
        makeMessage(base, {
          entryId,
          timestamp: ts,
          role: 'assistant',
          text: '',
          toolCalls: [{ id, name: str(payload.name) ?? String(payload.type), args: truncate(args) }],
        }),
      );
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = payload.output;
      const text = typeof output === 'string' ? output : isObject(output) ? (str(output.content) ?? JSON.stringify(output)) : '';
      return one(
        makeMessage(base, {
          entryId,
          timestamp: ts,
          role: 'tool',
          text: '',
          toolResults: [{ callId: str(payload.call_id) ?? '', text: truncate(text), isError: false }],
        }),
      );
    }
    default:
      return IGNORED;
  }
}
