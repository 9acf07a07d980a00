import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscoverOptions, LineResult, TranscriptFile, TranscriptParser, TranscriptReader } from '../../spec/conversation.js';
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
  one,
  parseJsonLine,
  str,
  toMillis,
  truncate,
  type Json,
  type MessageBase,
} from './common.js';
import { openClawAgentsDir } from './layout.js';

/**
 * OpenClaw, file era: pi SessionManager JSONL (versions 1-3) under `<state>/agents/<id>/sessions/`.
 * Archive names follow OpenClaw's `isPrimarySessionTranscriptFileName` rules.
 */
const ARCHIVE_MARKER = /\.jsonl\.(reset|deleted|bak)\./;
const CHECKPOINT = /\.checkpoint\.[^.]+\.jsonl$/;

export type OpenClawFileKind = 'primary' | 'archive' | 'compressed-archive' | 'skip';

export function classifyOpenClawFile(name: string): OpenClawFileKind {
  // Newer OpenClaw compresses archives: same names plus `.zst`.
  if (name.endsWith('.zst')) return ARCHIVE_MARKER.test(name) ? 'compressed-archive' : 'skip';
  if (name.endsWith('.trajectory.jsonl') || CHECKPOINT.test(name) || name.includes('.imported-')) return 'skip';
  if (ARCHIVE_MARKER.test(name)) return 'archive';
  if (name.endsWith('.jsonl')) return 'primary';
  return 'skip';
}

/** `<sessionId>.jsonl[...]`, or pi's default `<ISO-ts>_<uuid>.jsonl` where the uuid is the session id. */
export function sessionIdOf(name: string): string {
  const stem = name.slice(0, name.indexOf('.jsonl'));
  return PI_DEFAULT_NAME.exec(stem)?.[1] ?? stem;
}
const PI_DEFAULT_NAME = /^\d{4}-\d{2}-\d{2}T[\d-]+Z_([0-9a-f-]{36})$/i;

export function openClawStateDirs(env: Record<string, string | undefined>): string[] {
  if (env.OPENCLAW_STATE_DIR) return [env.OPENCLAW_STATE_DIR];
  const home = homeDir(env);
  return ['.openclaw', '.clawdbot', '.moltbot'].map((d) => join(home, d));
}

/** Legacy state dirs are often symlinks to the current one: read each real folder once. */
export async function uniqueRealPaths(paths: string[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const p of paths) {
    const real = await realpath(p).catch(() => undefined);
    if (real) seen.add(real);
  }
  return [...seen];
}

async function sessionKeysById(sessionsDir: string): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  try {
    const index: unknown = JSON.parse(await readFile(join(sessionsDir, 'sessions.json'), 'utf8'));
    if (!isObject(index)) return map;
    for (const [key, entry] of Object.entries(index)) {
      if (isObject(entry) && typeof entry.sessionId === 'string') map.set(entry.sessionId, key);
    }
  } catch {
    // No or unreadable index: fall back to synthetic keys.
  }
  return map;
}

export const openClawReader: TranscriptReader = {
  host: 'openclaw',
  defaultRoot: openClawStateDirs,
  async discover(options: DiscoverOptions): Promise<TranscriptFile[]> {
    const roots = options.root ? [options.root] : await uniqueRealPaths(openClawStateDirs(options.env ?? process.env));
    const files: TranscriptFile[] = [];
    for (const root of roots) {
      const { agentsDir, only } = options.root ? await openClawAgentsDir(root) : { agentsDir: join(root, 'agents'), only: undefined };
      for (const agent of await listDir(agentsDir)) {
        if (!agent.isDir || (options.agentId && agent.name !== options.agentId) || (only && agent.name !== only)) continue;
        const dir = join(agentsDir, agent.name, 'sessions');
        const keys = await sessionKeysById(dir);
        for (const entry of await listDir(dir)) {
          if (!entry.isFile) continue;
          const kind = classifyOpenClawFile(entry.name);
          if (kind === 'skip' || (kind !== 'primary' && !options.includeArchives)) continue;
          const sessionId = sessionIdOf(entry.name);
          files.push({
            host: 'openclaw',
            path: join(dir, entry.name),
            agentId: agent.name,
            sessionId,
            sessionKey: keys.get(sessionId) ?? `agent:${agent.name}:session:${sessionId}`,
            ...(kind === 'primary' ? {} : { archived: true }),
            ...(kind === 'compressed-archive' ? { compressed: 'zstd' as const } : {}),
          });
        }
      }
    }
    return files.sort((a, b) => a.path.localeCompare(b.path));
  },
  createParser(file: TranscriptFile): TranscriptParser {
    const base: MessageBase = { host: 'openclaw', agentId: file.agentId, sessionKey: file.sessionKey, sessionId: file.sessionId };
    return { line: (text) => parseOpenClawLine(base, text), end: () => [] };
  },
};

function entryTime(entry: Json, message?: Json): number {
  const fromEntry = toMillis(entry.timestamp, 0);
  return message ? toMillis(message.timestamp, fromEntry) : fromEntry;
}

/** v1 entries have no id: derive one from what migration keeps (message time and role). */
function entryIdOf(entry: Json, role: string, ts: number, raw: string): string {
  return str(entry.id) ?? `v1-${ts}-${role}-${entryHash(raw)}`;
}

export function parseOpenClawLine(base: MessageBase, raw: string): LineResult {
  const entry = parseJsonLine(raw);
  if (!entry) return MALFORMED;
  const type = str(entry.type);
  const parentId = str(entry.parentId) ?? null;
  if (type === 'message') {
    const msg = entry.message;
    if (!isObject(msg)) return MALFORMED;
    const role = str(msg.role) ?? '';
    const ts = entryTime(entry, msg);
    const entryId = entryIdOf(entry, role, ts, raw);
    switch (role) {
      case 'user':
        return one(makeMessage(base, { entryId, parentId, timestamp: ts, role: 'user', text: blockText(msg.content) }));
      case 'assistant': {
        const content = Array.isArray(msg.content) ? msg.content : [];
        const toolCalls = content
          .filter(isObject)
          .filter((b) => b.type === 'toolCall')
          .map((b) => ({ id: str(b.id) ?? '', name: str(b.name) ?? '', args: truncate(jsonText(b.arguments)) }));
        const mirror = msg.model === 'delivery-mirror' && (msg.provider === 'openclaw' || msg.provider === undefined);
        return one(
          makeMessage(base, {
            entryId,
            parentId,
            timestamp: ts,
            role: 'assistant',
            text: blockText(msg.content),
            toolCalls,
            flags: mirror ? { deliveryMirror: true } : {},
          }),
        );
      }
      case 'toolResult':
        return one(
          makeMessage(base, {
            entryId,
            parentId,
            timestamp: ts,
            role: 'tool',
            text: '',
            toolResults: [{ callId: str(msg.toolCallId) ?? '', text: truncate(blockText(msg.content)), isError: msg.isError === true }],
          }),
        );
      case 'bashExecution':
        return one(
          makeMessage(base, {
            entryId,
            parentId,
            timestamp: ts,
            role: 'tool',
            text: '',
            toolCalls: [{ id: entryId, name: 'bash', args: truncate(str(msg.command) ?? '') }],
            toolResults: [
              { callId: entryId, text: truncate(str(msg.output) ?? ''), isError: typeof msg.exitCode === 'number' && msg.exitCode !== 0 },
            ],
          }),
        );
      case 'custom':
      case 'hookMessage':
        return one(
          makeMessage(base, { entryId, parentId, timestamp: ts, role: 'system', text: blockText(msg.content), flags: { injected: true } }),
        );
      case 'branchSummary':
      case 'compactionSummary':
        return one(
          makeMessage(base, {
            entryId,
            parentId,
            timestamp: ts,
            role: 'summary',
            text: str(msg.summary) ?? '',
            flags: { compactionSummary: true },
          }),
        );
      default:
        return IGNORED;
    }
  }
  if (type === 'custom_message') {
    const ts = entryTime(entry);
    return one(
      makeMessage(base, {
        entryId: entryIdOf(entry, 'custom', ts, raw),
        parentId,
        timestamp: ts,
        role: 'system',
        text: blockText(entry.content),
        flags: { injected: true },
      }),
    );
  }
  if (type === 'compaction' || type === 'branch_summary') {
    const ts = entryTime(entry);
    return one(
      makeMessage(base, {
        entryId: entryIdOf(entry, type, ts, raw),
        parentId,
        timestamp: ts,
        role: 'summary',
        text: str(entry.summary) ?? '',
        flags: { compactionSummary: true },
      }),
    );
  }
  return IGNORED;
}
