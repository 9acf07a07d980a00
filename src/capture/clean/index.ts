import { redactSecrets } from '../../core/write/redact.js';
import type { ConversationMessage, ConversationRole } from '../../spec/conversation.js';
import { applyRules, buildRules, type StripKind } from './strip.js';

export { DEFAULT_INJECTED_TAGS, applyRules, buildRules, type StripKind } from './strip.js';

/**
 * The cleaner turns a normalised message into the text L0 stores, or a drop reason. It runs
 * before anything reaches disk: injected context is stripped (so Strata never learns its own
 * recalls), noise is dropped, secrets are redacted. Every decision is counted in `CleanStats`.
 */
export type DropReason =
  | 'role'
  | 'meta'
  | 'injected'
  | 'compaction-summary'
  | 'delivery-mirror'
  | 'sidechain'
  | 'empty'
  | 'no-reply'
  | 'heartbeat'
  | 'session-banner'
  | 'slash-command'
  | 'too-short'
  | 'too-long';

export interface CleanOptions {
  /** Roles written to L0. Default user, assistant and summary (compaction / branch summaries). */
  roles?: ConversationRole[];
  /** Shorter cleaned texts are dropped. Default 1 (drops only empty text). */
  minChars?: number;
  /** Longer cleaned texts (dumps, pasted logs) are dropped. Default 20,000 characters. */
  maxChars?: number;
  /** Replace fenced code in assistant text with `[code]`. Default false. */
  stripAssistantCodeBlocks?: boolean;
  /** Redact secrets with the engine's redactor. Default true. */
  redactSecrets?: boolean;
  /** Extra tag names (e.g. a plugin's recall wrapper) stripped with their content. */
  injectedTags?: string[];
  /** Keep subagent / sidechain turns. Default true. */
  keepSidechain?: boolean;
}

export interface CleanStats {
  kept: number;
  dropped: Partial<Record<DropReason, number>>;
  stripped: Partial<Record<StripKind, number>>;
  /** Redactions by kind (from the engine's redactor). */
  redactions: Record<string, number>;
}

export type CleanResult = { keep: true; text: string } | { keep: false; reason: DropReason };

export function emptyCleanStats(): CleanStats {
  return { kept: 0, dropped: {}, stripped: {}, redactions: {} };
}

export function mergeCleanStats(into: CleanStats, from: CleanStats): void {
  into.kept += from.kept;
  for (const [k, v] of Object.entries(from.dropped)) into.dropped[k as DropReason] = (into.dropped[k as DropReason] ?? 0) + v;
  for (const [k, v] of Object.entries(from.stripped)) into.stripped[k as StripKind] = (into.stripped[k as StripKind] ?? 0) + v;
  for (const [k, v] of Object.entries(from.redactions)) into.redactions[k] = (into.redactions[k] ?? 0) + v;
}

const NO_REPLY = /^\s*(?:NO_REPLY|HEARTBEAT_OK)\b/;
const HEARTBEAT = /^\s*(?:Read HEARTBEAT\.md if it exists|\[heartbeat\])/i;
const SESSION_BANNER = /^\s*(?:✅ New session started|A new session was started via \/new or \/reset)/;
const SLASH_COMMAND = /^\s*(?:\/[A-Za-z][\w:-]*(?:\s|$)|<command-name>|<command-message>|<bash-input>|<bash-stdout>)/;

export interface Cleaner {
  clean(message: ConversationMessage): CleanResult;
  readonly stats: CleanStats;
}

export function createCleaner(options: CleanOptions = {}): Cleaner {
  const roles = new Set<ConversationRole>(options.roles ?? ['user', 'assistant', 'summary']);
  const minChars = options.minChars ?? 1;
  const maxChars = options.maxChars ?? 20_000;
  const redact = options.redactSecrets ?? true;
  const keepSidechain = options.keepSidechain ?? true;
  const rules = buildRules({ injectedTags: options.injectedTags });
  const codeRules = buildRules({ stripCodeBlocks: true }).filter((r) => r.kind === 'code-block');
  const stats = emptyCleanStats();

  const drop = (reason: DropReason): CleanResult => {
    stats.dropped[reason] = (stats.dropped[reason] ?? 0) + 1;
    return { keep: false, reason };
  };

  const clean = (message: ConversationMessage): CleanResult => {
    const flags = message.flags;
    if (flags.deliveryMirror) return drop('delivery-mirror');
    // A compaction or branch summary is kept as its own role (distillation and summaries read it;
    // raw conversation search leaves it out); only a summary in some other role is dropped.
    if (flags.compactionSummary && (message.role !== 'summary' || !roles.has('summary'))) return drop('compaction-summary');
    if (flags.meta) return drop('meta');
    if (flags.injected) return drop('injected');
    if (flags.sidechain && !keepSidechain) return drop('sidechain');
    if (!roles.has(message.role)) return drop('role');
    const raw = message.text.trim();
    if (raw.length === 0) return drop('empty');
    // Command wrappers are judged before stripping: the wrapper is what marks them as noise.
    if (SLASH_COMMAND.test(raw)) return drop('slash-command');
    const result = applyRules(raw, rules);
    let text = result.text;
    let stripped = result.stripped;
    if (options.stripAssistantCodeBlocks && message.role === 'assistant') {
      const code = applyRules(text, codeRules);
      text = code.text;
      stripped = { ...stripped, ...code.stripped };
    }
    for (const [k, v] of Object.entries(stripped)) stats.stripped[k as StripKind] = (stats.stripped[k as StripKind] ?? 0) + v;
    if (text.length === 0) return drop(Object.keys(stripped).length > 0 ? 'injected' : 'empty');
    if (NO_REPLY.test(text)) return drop('no-reply');
    if (HEARTBEAT.test(text)) return drop('heartbeat');
    if (SESSION_BANNER.test(text)) return drop('session-banner');
    if (SLASH_COMMAND.test(text)) return drop('slash-command');
    if (text.length < minChars) return drop('too-short');
    if (text.length > maxChars) return drop('too-long');
    if (redact) {
      const r = redactSecrets(text);
      if (r.count > 0) {
        text = r.text;
        for (const { kind, count } of r.redactions) stats.redactions[kind] = (stats.redactions[kind] ?? 0) + count;
      }
    }
    stats.kept += 1;
    return { keep: true, text };
  };

  return { clean, stats };
}
