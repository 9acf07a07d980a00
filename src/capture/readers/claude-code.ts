import { basename, join } from 'node:path';
import type {
  ConversationMessage,
  DiscoverOptions,
  LineResult,
  MessageFlags,
  ToolCallSummary,
  ToolResultSummary,
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
  jsonText,
  listDir,
  makeMessage,
  parseJsonLine,
  str,
  toMillis,
  truncate,
  type Json,
  type MessageBase,
} from './common.js';
import { claudeProjectDirs } from './layout.js';

/** `content` of a queue line or `prompt` of a queued_command: a string or content blocks. */
function queueText(content: unknown): string {
  return typeof content === 'string' ? content : blockText(content);
}

/**
 * Claude Code: `<config>/projects/<encoded cwd>/<sessionId>.jsonl`. Assistant turns are written one
 * content block per line; lines sharing `message.id` are merged into one message (tool results
 * that arrive in between are held and emitted after it).
 */
export function claudeConfigDirs(env: Record<string, string | undefined>): string[] {
  return [env.CLAUDE_CONFIG_DIR ?? join(homeDir(env), '.claude')];
}

const NOISE_TYPES = new Set([
  'progress',
  'file-history-snapshot',
  'system',
  'custom-title',
  'ai-title',
  'agent-name',
  'permission-mode',
  'mode',
]);

/** Background-task notices ride the same queue as typed messages; they are host output, not the user. */
const TASK_NOTIFICATION = /^\s*<task-notification>/;
/** How older versions fold a message typed mid-turn into a tool result. */
const MID_TURN_NOTICE =
  /The user sent (?:the following|a new) message(?: while you were working)?:\n([\s\S]+?)\n\n(?:Please address this message|This is how|<\/system-reminder>|$)/g;

export const claudeCodeReader: TranscriptReader = {
  host: 'claude-code',
  defaultRoot: claudeConfigDirs,
  async discover(options: DiscoverOptions): Promise<TranscriptFile[]> {
    const roots = options.root ? [options.root] : claudeConfigDirs(options.env ?? process.env);
    const agentId = options.agentId ?? 'claude-code';
    const files: TranscriptFile[] = [];
    for (const root of roots) {
      // Default roots are config dirs; a given root may be any level of the layout.
      const projectDirs = options.root
        ? await claudeProjectDirs(root)
        : (await listDir(join(root, 'projects'))).filter((e) => e.isDir).map((e) => join(root, 'projects', e.name));
      for (const dir of projectDirs) {
        const project = { name: basename(dir) };
        for (const entry of await listDir(dir)) {
          if (entry.isFile && entry.name.endsWith('.jsonl')) {
            const sessionId = basename(entry.name, '.jsonl');
            // One key per session (a project has many); subagents below share their parent's.
            files.push({
              host: 'claude-code',
              path: join(dir, entry.name),
              agentId,
              sessionId,
              sessionKey: `claude-code:${project.name}/${sessionId}`,
            });
          } else if (entry.isDir && options.includeSubagents) {
            const subDir = join(dir, entry.name, 'subagents');
            for (const sub of await listDir(subDir)) {
              if (!sub.isFile || !sub.name.endsWith('.jsonl')) continue;
              files.push({
                host: 'claude-code',
                path: join(subDir, sub.name),
                agentId,
                sessionId: `${entry.name}/${basename(sub.name, '.jsonl')}`,
                sessionKey: `claude-code:${project.name}/${entry.name}`,
                archived: true,
              });
            }
          }
        }
      }
    }
    return files.sort((a, b) => a.path.localeCompare(b.path));
  },
  createParser(file: TranscriptFile): TranscriptParser {
    return new ClaudeParser({ host: 'claude-code', agentId: file.agentId, sessionKey: file.sessionKey, sessionId: file.sessionId });
  },
};

interface OpenGroup {
  messageId: string;
  entryId: string;
  parentId: string | null;
  timestamp: number;
  texts: string[];
  toolCalls: ToolCallSummary[];
  flags: MessageFlags;
}

class ClaudeParser implements TranscriptParser {
  private group: OpenGroup | undefined;
  private held: ConversationMessage[] = [];
  /**
   * Texts captured from `enqueue` lines whose delivery has not been seen yet: the delivery (a user
   * line, an attachment) is the same message and is not emitted again.
   */
  private queued = new Set<string>();

  constructor(private readonly base: MessageBase) {}

  line(raw: string): LineResult {
    const entry = parseJsonLine(raw);
    if (!entry) return MALFORMED;
    const type = str(entry.type) ?? '';
    if (type === 'assistant') return this.assistant(entry);
    if (type === 'user') return this.user(entry);
    if (type === 'summary') {
      // A session title written for the resume list (or an API error in its place), not a
      // compaction summary: the compaction summary is the `isCompactSummary` user line.
      const text = str(entry.summary) ?? '';
      const id = str(entry.leafUuid) ?? str(entry.uuid) ?? '';
      return this.emit([this.msg(entry, { entryId: `title-${id}`, role: 'system', text, flags: { meta: true } })]);
    }
    if (type === 'queue-operation') return this.queueOperation(entry);
    if (type === 'attachment') {
      const att = entry.attachment;
      if (!isObject(att)) return IGNORED;
      if (att.type === 'queued_command') return this.queuedCommand(entry, att);
      const text = Array.isArray(att.content)
        ? att.content.map((c) => (typeof c === 'string' ? c : jsonText(c))).join('\n')
        : (str(att.content) ?? '');
      return this.emit([this.msg(entry, { role: 'system', text, flags: { injected: true } })]);
    }
    if (NOISE_TYPES.has(type)) return IGNORED;
    return IGNORED;
  }

  end(): ConversationMessage[] {
    const out = this.closeGroup();
    out.push(...this.held);
    this.held = [];
    return out;
  }

  private msg(entry: Json, fields: Partial<ConversationMessage> & Pick<ConversationMessage, 'role' | 'text'>): ConversationMessage {
    const flags: MessageFlags = { ...fields.flags };
    if (entry.isSidechain === true) flags.sidechain = true;
    return makeMessage(this.base, {
      entryId: fields.entryId ?? str(entry.uuid) ?? '',
      parentId: str(entry.parentUuid) ?? str(entry.logicalParentUuid) ?? null,
      timestamp: toMillis(entry.timestamp, 0),
      role: fields.role,
      text: fields.text,
      toolCalls: fields.toolCalls ?? [],
      toolResults: fields.toolResults ?? [],
      flags,
    });
  }

  private user(entry: Json): LineResult {
    const message = entry.message;
    if (!isObject(message)) return MALFORMED;
    const content = message.content;
    const flags: MessageFlags = {};
    if (entry.isMeta === true || entry.isVisibleInTranscriptOnly === true) flags.meta = true;
    if (entry.isCompactSummary === true) {
      return this.emit([this.msg(entry, { role: 'summary', text: blockText(content), flags: { compactionSummary: true } })]);
    }
    const blocks = Array.isArray(content) ? content.filter(isObject) : [];
    const results: ToolResultSummary[] = blocks
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({
        callId: str(b.tool_use_id) ?? '',
        text: truncate(blockText(b.content)),
        isError: b.is_error === true,
      }));
    if (results.length > 0) {
      // Tool results belong to the open assistant turn: hold them so the turn is emitted first.
      const tool = this.msg(entry, { role: 'tool', text: '', toolResults: results, flags });
      // Older versions deliver a message typed mid-turn inside a tool result; it was emitted at enqueue.
      for (const r of results) for (const match of r.text.matchAll(MID_TURN_NOTICE)) this.queued.delete(match[1]!.trim());
      if (this.group) {
        this.held.push(tool);
        return { messages: [] };
      }
      return { messages: [tool] };
    }
    const text = blockText(content);
    // The idle-path delivery of a queued message repeats what was captured at enqueue.
    if (!flags.meta && this.takeQueued(text)) return this.emit([]);
    return this.emit([this.msg(entry, { role: 'user', text, flags })]);
  }

  /**
   * `queue-operation` lines: `enqueue` (with `content`) when the user types while the agent works
   * (or a background task reports), `dequeue` / `remove` / `popAll` when the queue drains. A typed
   * message is captured at enqueue, in the order the user wrote it, because its later delivery
   * differs by version: a user line (idle), a `queued_command` attachment (mid-turn, 2.1.1xx+), or
   * text folded into a tool result (older). Task notifications are host output and are skipped.
   */
  private queueOperation(entry: Json): LineResult {
    if (entry.operation !== 'enqueue') return IGNORED;
    const text = queueText(entry.content).trim();
    if (text === '' || TASK_NOTIFICATION.test(text)) return IGNORED;
    const timestamp = toMillis(entry.timestamp, 0);
    this.queued.add(text);
    const message = makeMessage(this.base, { entryId: `queued-${timestamp}-${entryHash(text)}`, timestamp, role: 'user', text });
    // Typed during an assistant turn: it follows that turn (the agent reads it afterwards).
    if (this.group) {
      this.held.push(message);
      return { messages: [] };
    }
    return { messages: [message] };
  }

  /** A queued message injected mid-turn (newer versions): the user's words, unless a task notice. */
  private queuedCommand(entry: Json, att: Json): LineResult {
    const text = queueText(att.prompt ?? att.content).trim();
    if (text === '' || TASK_NOTIFICATION.test(text) || att.commandMode === 'task-notification') return IGNORED;
    if (this.takeQueued(text)) return this.emit([]);
    return this.emit([this.msg(entry, { role: 'user', text })]);
  }

  /** True when `text` was already captured from its enqueue line (and forgets it). */
  private takeQueued(text: string): boolean {
    return this.queued.delete(text.trim());
  }

  private assistant(entry: Json): LineResult {
    const message = entry.message;
    if (!isObject(message)) return MALFORMED;
    const messageId = str(message.id) ?? str(entry.requestId) ?? str(entry.uuid) ?? '';
    const out: ConversationMessage[] = [];
    if (this.group && this.group.messageId !== messageId) out.push(...this.closeGroup(), ...this.takeHeld());
    if (!this.group) {
      const flags: MessageFlags = entry.isSidechain === true ? { sidechain: true } : {};
      // The first line's uuid names the turn: stable when the same bytes are re-read.
      this.group = {
        messageId,
        entryId: str(entry.uuid) ?? messageId,
        parentId: str(entry.parentUuid) ?? null,
        timestamp: toMillis(entry.timestamp, 0),
        texts: [],
        toolCalls: [],
        flags,
      };
    }
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    for (const block of blocks) {
      if (block.type === 'text' && typeof block.text === 'string') this.group.texts.push(block.text);
      else if (block.type === 'tool_use') {
        this.group.toolCalls.push({ id: str(block.id) ?? '', name: str(block.name) ?? '', args: truncate(jsonText(block.input)) });
      }
    }
    return { messages: out };
  }

  private emit(messages: ConversationMessage[]): LineResult {
    const out = [...this.closeGroup(), ...this.takeHeld(), ...messages];
    return { messages: out };
  }

  private takeHeld(): ConversationMessage[] {
    const held = this.held;
    this.held = [];
    return held;
  }

  private closeGroup(): ConversationMessage[] {
    const g = this.group;
    if (!g) return [];
    this.group = undefined;
    return [
      makeMessage(this.base, {
        entryId: g.entryId,
        parentId: g.parentId,
        timestamp: g.timestamp,
        role: 'assistant',
        text: g.texts.join('\n\n'),
        toolCalls: g.toolCalls,
        flags: g.flags,
      }),
    ];
  }
}
