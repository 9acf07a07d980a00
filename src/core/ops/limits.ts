/**
 * Every size limit of the operations, derived once from the engine's config so that MCP, HTTP,
 * OpenClaw and the CLI accept exactly the same inputs (and the engine never sees more than it
 * can store: a memory's text is capped by `write.maxChars`, not by a host's own guess).
 */
import { DEFAULT_RECALL_CONFIG } from '../recall/config.js';
import { DEFAULT_MAX_CHARS } from '../write/normalize.js';

export interface OpsConfig {
  write: { maxChars: number };
  recall: { defaultLimit: number; maxLimit: number; queryMaxChars: number };
  /** The configured LLM (absent or `none`: the engine runs without one). */
  llm?: { provider: string; model?: string };
}

export interface OpLimits {
  /** A memory's text, in characters (code points): `write.maxChars`. */
  textMaxChars: number;
  /** Results of recall, forget-by-query and conversation search: `recall.defaultLimit` / `recall.maxLimit`. */
  resultsDefault: number;
  resultsMax: number;
  /** A query may be longer than what is searched (`recall.queryMaxChars`): recall cleans and truncates it. */
  queryMaxChars: number;
  listDefault: number;
  listMax: number;
  tagsMax: number;
  tagMaxChars: number;
  /** Ids per forget call and scopes per request. */
  idsMax: number;
  scopesMax: number;
  contextTokensDefault: number;
  contextTokensMax: number;
}

/** A prompt pasted as a query is accepted up to this size and truncated by recall, not refused. */
const QUERY_INPUT_MAX = 4_000;

export function limitsOf(config: OpsConfig): OpLimits {
  return {
    textMaxChars: config.write.maxChars,
    resultsDefault: Math.min(config.recall.defaultLimit, config.recall.maxLimit),
    resultsMax: config.recall.maxLimit,
    queryMaxChars: Math.max(QUERY_INPUT_MAX, config.recall.queryMaxChars),
    listDefault: 50,
    listMax: 1_000,
    tagsMax: 32,
    tagMaxChars: 64,
    idsMax: 100,
    scopesMax: 32,
    contextTokensDefault: 1_500,
    contextTokensMax: 10_000,
  };
}

/** The limits of a default configuration, for schemas shown before an engine is open. */
export const DEFAULT_OPS_CONFIG: OpsConfig = { write: { maxChars: DEFAULT_MAX_CHARS }, recall: DEFAULT_RECALL_CONFIG };
