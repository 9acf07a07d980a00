import { join } from 'node:path';
import { InvalidArgumentError } from '../errors/index.js';
import { assertAgentId } from '../core/scope.js';
import type { ConversationHost, ConversationMessage, L0Record } from '../spec/conversation.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import { l0RecordOf } from './l0-record.js';
import { withFileLock } from '../util/file-lock.js';
import { createCleaner, type CleanOptions, type CleanStats } from './clean/index.js';
import { readJsonFile, writeFileDurable } from '../util/fs-util.js';
import { DEFAULT_SKIP_AGENT_IDS } from './ingest.js';
import { parseOpenClawLine } from './readers/openclaw.js';
import { blockText, entryHash, hashId, isObject, makeMessage, str, toMillis, type MessageBase } from './readers/common.js';

/**
 * Live-hook capture: the host passes the whole session on every call (OpenClaw `agent_end`,
 * a custom agent's turn hook). Three guards make each message land in L0 once:
 * 1. a position cursor: when the session still starts with the same message, only messages past
 *    the last seen count are considered;
 * 2. a timestamp cursor, used when the position no longer fits (compaction, reset, restart);
 * 3. the L0 entry-id and content fingerprints, which catch whatever the first two let through.
 */
export interface CaptureOptions {
  /** Strata home: the live cursors go to `<home>/capture/live`. */
  home: string;
  /** Where messages go (hosts use `Strata.capture`, which also feeds the conversation index). */
  log: L0LogV1;
  agentId: string;
  sessionKey: string;
  sessionId?: string;
  /** The session's messages, oldest first: `{role, content, timestamp?, id?}` or pi/OpenClaw entries. */
  messages: unknown[];
  host?: ConversationHost;
  clean?: CleanOptions;
  skipAgentIds?: string[];
  dryRun?: boolean;
}

export interface CaptureResult {
  /** Messages considered after the position/timestamp cursors. */
  considered: number;
  new: number;
  duplicates: number;
  records: L0Record[];
  noise: CleanStats['dropped'];
  redactions: number;
  skipped?: 'agent';
}

interface LiveState {
  count: number;
  lastTimestamp: number;
  head: string;
}

const ROLE_MAP: Record<string, ConversationMessage['role']> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  model: 'assistant',
  tool: 'tool',
  toolResult: 'tool',
  function: 'tool',
  system: 'system',
  summary: 'summary',
};

/** Normalises one host message; ids default to a content hash so a resent message keeps its id. */
export function normaliseLiveMessage(base: MessageBase, value: unknown): ConversationMessage | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'message' && isObject(value.message)) return parseOpenClawLine(base, JSON.stringify(value)).messages[0];
  const rawRole = str(value.role);
  const role = rawRole ? ROLE_MAP[rawRole] : undefined;
  if (!role) return undefined;
  const text = blockText(value.content ?? value.text);
  const timestamp = toMillis(value.timestamp, 0);
  const id = str(value.id) ?? str(value.entryId) ?? entryHash(`${role}|${timestamp}|${text}`);
  const mirror = value.model === 'delivery-mirror';
  return makeMessage(base, { entryId: id, timestamp, role, text, flags: mirror ? { deliveryMirror: true } : {} });
}

export async function capture(options: CaptureOptions): Promise<CaptureResult> {
  if (!options.agentId || !options.sessionKey) {
    throw new InvalidArgumentError({
      argument: !options.agentId ? 'agentId' : 'sessionKey',
      message: 'capture() needs agentId and sessionKey to know whose conversation this is.',
    });
  }
  assertAgentId(options.agentId);
  if (!Array.isArray(options.messages)) {
    throw new InvalidArgumentError({
      argument: 'messages',
      message: 'capture() needs messages as an array (the whole session, oldest first).',
    });
  }
  const cleaner = createCleaner(options.clean);
  const empty: CaptureResult = { considered: 0, new: 0, duplicates: 0, records: [], noise: cleaner.stats.dropped, redactions: 0 };
  if ((options.skipAgentIds ?? DEFAULT_SKIP_AGENT_IDS).includes(options.agentId)) return { ...empty, skipped: 'agent' };

  const base: MessageBase = {
    host: options.host ?? 'live',
    agentId: options.agentId,
    sessionKey: options.sessionKey,
    sessionId: options.sessionId ?? options.sessionKey,
  };
  const messages = options.messages.map((m) => normaliseLiveMessage(base, m));
  const statePath = join(options.home, 'capture', 'live', `${hashId(`${options.agentId}|${options.sessionKey}`)}.json`);
  const head = hashId(JSON.stringify(options.messages[0] ?? null));

  return withFileLock({ path: `${statePath}.lock` }, async () => {
    const raw = await readJsonFile(statePath).catch(() => undefined);
    const state: LiveState | undefined = isObject(raw) ? (raw as unknown as LiveState) : undefined;
    let candidates: Array<ConversationMessage | undefined>;
    if (state && state.head === head && messages.length >= state.count) candidates = messages.slice(state.count);
    else if (state) candidates = messages.filter((m) => !m || m.timestamp === 0 || m.timestamp > state.lastTimestamp);
    else candidates = messages;

    const recordedAt = new Date();
    const records: L0Record[] = [];
    let considered = 0;
    for (const m of candidates) {
      if (!m) continue;
      considered += 1;
      const cleaned = cleaner.clean(m);
      if (!cleaned.keep) continue;
      records.push(l0RecordOf(m, cleaned.text, recordedAt));
    }
    const appended = await options.log.append({ records, dryRun: options.dryRun });
    if (!options.dryRun) {
      const lastTimestamp = Math.max(state?.lastTimestamp ?? 0, ...messages.map((m) => m?.timestamp ?? 0));
      const next: LiveState = { count: messages.length, lastTimestamp, head };
      await writeFileDurable(statePath, JSON.stringify(next));
    }
    return {
      considered,
      new: appended.written,
      duplicates: appended.duplicates,
      records: appended.records,
      noise: cleaner.stats.dropped,
      redactions: Object.values(cleaner.stats.redactions).reduce((a, b) => a + b, 0),
    };
  });
}
