/**
 * Read side for the context bootstrap: the summaries that cover a session's summarised history
 * (every unmerged summary: oldest history in the highest levels), newest kept first when a token
 * budget cannot hold them all.
 */
import type { SummaryStoreV1 } from '../../spec/summary-store.js';
import { estimateTokens } from '../recall/tokens.js';
import { FileSummaryStore } from './file-store.js';
import { coverage, type SummaryIndex } from './index-file.js';

export interface SessionSummary {
  id: string;
  level: number;
  sessionKey: string;
  /** Epoch ms of the oldest and newest message covered. */
  from: number;
  to: number;
  messageCount: number;
  tokens: number;
  text: string;
}

export interface ReadSessionSummariesResult {
  /** Oldest first: sessions by their newest covered message, each session's summaries in order. */
  summaries: SessionSummary[];
  /** Estimated tokens of `summaries` (texts only). */
  tokens: number;
  /** Older summaries left out to stay within the budget. */
  omitted: number;
}

export interface ReadSessionSummariesOptions {
  home: string;
  /** Where summaries are kept. Default: files under `home`. */
  store?: SummaryStoreV1;
  agentId: string;
  /** One session; default every summarised session of the agent. */
  sessionKey?: string;
  /** Keep the newest summaries whose texts fit; default no limit. */
  budgetTokens?: number;
}

async function sessionIndexes(store: SummaryStoreV1, options: ReadSessionSummariesOptions): Promise<SummaryIndex[]> {
  if (options.sessionKey === undefined) return store.indexes({ agentId: options.agentId });
  // Missing or unreadable: the bootstrap goes on without summaries.
  const index = await store.readIndex({ agentId: options.agentId, sessionKey: options.sessionKey }).catch(() => undefined);
  return index ? [index] : [];
}

export async function readSessionSummaries(options: ReadSessionSummariesOptions): Promise<ReadSessionSummariesResult> {
  const store = options.store ?? new FileSummaryStore({ home: options.home });
  const all: SessionSummary[][] = [];
  for (const index of await sessionIndexes(store, options)) {
    const list: SessionSummary[] = [];
    for (const entry of coverage(index)) {
      const text = await store.readText({ agentId: index.agentId, sessionKey: index.sessionKey, id: entry.id }).catch(() => undefined);
      if (!text) continue;
      list.push({
        id: entry.id,
        level: entry.level,
        sessionKey: index.sessionKey,
        from: entry.from,
        to: entry.to,
        messageCount: entry.messageCount,
        tokens: estimateTokens(text),
        text,
      });
    }
    if (list.length > 0) all.push(list);
  }
  all.sort((a, b) => Math.max(...a.map((s) => s.to)) - Math.max(...b.map((s) => s.to)));
  const flat = all.flat();
  const budget = options.budgetTokens ?? Infinity;
  let used = 0;
  let keepFrom = flat.length;
  // Walk back from the newest and stop at the first that does not fit, so what is kept is contiguous.
  while (keepFrom > 0 && used + flat[keepFrom - 1]!.tokens <= budget) {
    keepFrom--;
    used += flat[keepFrom]!.tokens;
  }
  return { summaries: flat.slice(keepFrom), tokens: used, omitted: keepFrom };
}

/** A plain-text block for a prompt: one section per summary, labelled with its period. */
export function formatSessionSummaries(result: ReadSessionSummariesResult): string {
  return result.summaries
    .map((s) => {
      const from = new Date(s.from).toISOString().slice(0, 16).replace('T', ' ');
      const to = new Date(s.to).toISOString().slice(0, 16).replace('T', ' ');
      return `<session-summary session="${s.sessionKey}" level="${s.level}" from="${from}" to="${to}">\n${s.text}\n</session-summary>`;
    })
    .join('\n');
}
