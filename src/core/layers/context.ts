/**
 * The context a host injects at session start: the persona, the scene navigation and the most
 * relevant memories, within one token budget.
 *
 *   const { text } = await buildContext({ strata, agentId: 'main', query: 'first user message', budgetTokens: 1500 });
 *
 * With a query, memories come from recall; without one, from the agent's most important and most
 * recent memories. Budget split: persona up to 45%, scene navigation up to 20%, memories the rest
 * (unused persona/navigation budget goes to memories). Every section is optional: an agent with no
 * persona or scenes yet still gets its memories. With a session key, that session's hierarchical
 * summaries (src/core/summaries) come next, up to 25% of the budget, newest kept when they do not
 * all fit. Returns '' text when there is nothing at all.
 */
import type { MemoryRecord } from '../../spec/memory-record.js';
import type { RecallOptions, RecallResult } from '../recall/types.js';
import { escapeMemoryText, formatContextBlock } from '../recall/context-format.js';
import { estimateTokens } from '../recall/tokens.js';
import { agentScopes } from '../scope.js';
import type { MemoryLister } from './organiser.js';
import { layerPaths } from './paths.js';
import { stripSceneNavigation } from './persona.js';
import { FileLayerStore } from './file-store.js';
import { readPersonaText, readScenes } from './read.js';
import type { LayerStoreV1 } from '../../spec/layer-store.js';
import type { SummaryStoreV1 } from '../../spec/summary-store.js';
import { readSessionSummaries } from '../summaries/read.js';
import { conversationFallback, formatConversationExcerpts } from '../recall/conversation/fallback.js';
import type { ConversationTurnResult } from '../recall/conversation/search.js';
import { isAutoInjectable } from '../write/injection.js';

/** `Strata` fits as is; a bare `MemoryEngine` needs the home next to it. */
export interface ContextSource extends MemoryLister {
  home: string;
  /** Where the session summaries are (default: files under `home`). */
  summaryStore?: SummaryStoreV1;
  /** Where the persona and scenes are (default: files under `home`). */
  layerStore?: LayerStoreV1;
  recall(options: RecallOptions): Promise<RecallResult>;
}

export interface BuildContextOptions {
  strata: ContextSource;
  agentId: string;
  /** E.g. the first user message; enables recall instead of importance + recency. */
  query?: string;
  /** Whole output, tags included. Default 1500. */
  budgetTokens?: number;
  /** The session being started or resumed: adds its hierarchical summaries. */
  sessionKey?: string;
  /** Memory scopes read. Default: global + agent:<id>. */
  scopes?: string[];
  now?: Date;
  abortSignal?: AbortSignal;
  /**
   * Caller-scoped conversation search: with a query whose memories do not answer it, its
   * confident turns are added as `<conversation-excerpts>` (conversation/fallback.ts).
   */
  searchConversations?: (options: { query: string; limit: number }) => Promise<ConversationTurnResult[]>;
}

export interface ContextResult {
  text: string;
  /** Estimated tokens of `text` (never above the budget). */
  tokens: number;
  persona: boolean;
  scenes: number;
  memories: number;
  /** Hierarchical summaries included. */
  summaries: number;
  /** Conversation excerpts included (when memories did not answer the query). */
  conversations?: number;
}

/**
 * Tag-safe text: a persona or summary can never close or open the wrapper's tags. The same
 * neutralisation as memory lines (tag-like `<` only, no HTML entities: the reader is a model).
 */
const neutralise = escapeMemoryText;

/** Whole lines, in order, while they fit; a cut is marked so the reader knows there is more. */
function fitLines(lines: string[], maxTokens: number): { lines: string[]; tokens: number } {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = estimateTokens(line) + 1;
    if (used + cost > maxTokens) {
      if (out.length > 0 && used + 2 <= maxTokens) out.push('…');
      break;
    }
    out.push(line);
    used += cost;
  }
  return { lines: out, tokens: out.reduce((n, l) => n + estimateTokens(l) + 1, 0) };
}

async function pickMemories(options: BuildContextOptions, scopes: string[]): Promise<Array<{ record: MemoryRecord; score?: number }>> {
  // The bootstrap is injected without being asked for: flagged memories stay out.
  if (options.query?.trim()) {
    const result = await options.strata.recall({
      query: options.query,
      scopes,
      limit: 20,
      abortSignal: options.abortSignal,
      now: options.now,
    });
    return result.results.filter((r) => isAutoInjectable(r.record));
  }
  const recent = (await options.strata.list({ scopes, order: 'newest', limit: 200 })).filter(isAutoInjectable);
  const important = [...recent].sort((a, b) => b.importance - a.importance || b.createdAt.localeCompare(a.createdAt));
  // Alternate the most important and the most recent so neither crowds the other out.
  const seen = new Set<string>();
  const picked: Array<{ record: MemoryRecord }> = [];
  for (let i = 0; i < recent.length; i++) {
    for (const record of [important[i]!, recent[i]!]) {
      if (!seen.has(record.id)) {
        seen.add(record.id);
        picked.push({ record });
      }
    }
  }
  return picked;
}

export async function buildContext(options: BuildContextOptions): Promise<ContextResult> {
  const budget = options.budgetTokens ?? 1500;
  const paths = layerPaths({ home: options.strata.home, agentId: options.agentId });
  const scopes = options.scopes ?? agentScopes(options.agentId);
  const open = `<agent-context agent="${paths.agentId}">`;
  const close = '</agent-context>';
  let remaining = budget - estimateTokens(open) - estimateTokens(close) - 2;
  const parts: string[] = [];

  const layers = options.strata.layerStore ?? new FileLayerStore({ home: options.strata.home });
  const personaRaw = (await readPersonaText(layers, paths.agentId)) ?? '';
  const personaBody = stripSceneNavigation(personaRaw).trim();
  let persona = false;
  if (personaBody) {
    const fitted = fitLines(neutralise(personaBody).split('\n'), Math.floor(budget * 0.45) - 6);
    if (fitted.lines.length > 0) {
      parts.push('<persona>', ...fitted.lines, '</persona>');
      remaining -= fitted.tokens + 6;
      persona = true;
    }
  }

  const scenes = await readScenes(layers, paths.agentId);
  let sceneCount = 0;
  if (scenes.length > 0) {
    // A shared store's scenes are not files on this machine: the host reads them through the scene operation.
    const head = layers.capabilities.shared
      ? `Scene files of agent ${paths.agentId} (read one with the scene operation for details):`
      : `Scene files in ${paths.scenesDir} (read one for details):`;
    const lines = scenes.map((s) => neutralise(`- ${s.filename} (heat ${s.heat}): ${s.summary}`.replace(/\s+/g, ' ')));
    const fitted = fitLines(lines, Math.min(Math.floor(budget * 0.2), remaining) - estimateTokens(head) - 8);
    sceneCount = fitted.lines.filter((l) => l !== '…').length;
    if (sceneCount > 0) {
      parts.push('<scenes>', head, ...fitted.lines, '</scenes>');
      remaining -= fitted.tokens + estimateTokens(head) + 8;
    }
  }

  let summaryCount = 0;
  if (options.sessionKey !== undefined && remaining > 20) {
    const cap = Math.min(Math.floor(budget * 0.25), remaining) - 10;
    // Each summary is wrapped in one line of tags: budget the texts a little below the cap.
    const read = await readSessionSummaries({
      home: options.strata.home,
      store: options.strata.summaryStore,
      agentId: options.agentId,
      sessionKey: options.sessionKey,
      budgetTokens: Math.max(0, cap - 12),
    });
    const lines = read.summaries.map(
      (s) =>
        `<summary level="${s.level}" from="${new Date(s.from).toISOString()}" to="${new Date(s.to).toISOString()}">${neutralise(s.text).replace(/\s*\n\s*/g, ' ')}</summary>`,
    );
    const fitted = fitLines(lines, cap);
    summaryCount = fitted.lines.filter((l) => l !== '…').length;
    if (summaryCount > 0) {
      parts.push('<session-history>', ...fitted.lines, '</session-history>');
      remaining -= fitted.tokens + 10;
    }
  }

  const candidates = await pickMemories(options, scopes);
  let conversations = 0;
  const query = options.query?.trim();
  if (query && options.searchConversations && remaining > 40) {
    const search = options.searchConversations;
    const hits = await conversationFallback({
      memories: { results: candidates.map((c) => ({ score: c.score ?? 0 })) },
      search: (limit) => search({ query, limit }),
    });
    const excerpts = formatConversationExcerpts({ hits, maxTokens: Math.min(Math.floor(budget * 0.25), remaining) });
    if (excerpts) {
      parts.push(excerpts);
      conversations = excerpts.split('\n').length - 2;
      remaining -= estimateTokens(excerpts) + 1;
    }
  }
  const block = remaining > 0 ? formatContextBlock({ results: candidates, maxTokens: remaining, now: options.now }) : '';
  const memories = block ? block.split('\n').length - 3 : 0;
  if (block) parts.push(block);

  if (parts.length === 0) return { text: '', tokens: 0, persona: false, scenes: 0, memories: 0, summaries: 0 };
  const text = [open, ...parts, close].join('\n');
  return {
    text,
    tokens: estimateTokens(text),
    persona,
    scenes: sceneCount,
    memories,
    summaries: summaryCount,
    ...(options.searchConversations ? { conversations } : {}),
  };
}
