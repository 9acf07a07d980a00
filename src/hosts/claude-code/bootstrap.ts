/**
 * The SessionStart context: the layered bootstrap (persona, scene navigation, the agent's most
 * important and most recent memories) from `buildContext`, held under Claude Code's size cap.
 */
import { buildContext, type ContextSource } from '../../core/layers/context.js';

/** Claude Code saves `additionalContext` over 10,000 characters to a file and shows a preview only. */
export const MAX_CONTEXT_CHARS = 10_000;
/** ~2,000 tokens: the estimate errs high (~4 chars/token), so this normally lands near 8,000 chars. */
const DEFAULT_BUDGET_TOKENS = 2_000;

export async function buildSessionContext(options: {
  strata: ContextSource;
  agentId: string;
  scopes: string[];
  /** On resume/compact: the session whose hierarchical summaries to include. */
  sessionKey?: string;
  now?: Date;
  maxChars?: number;
}): Promise<string> {
  const maxChars = Math.min(options.maxChars ?? MAX_CONTEXT_CHARS, MAX_CONTEXT_CHARS);
  // A CJK-heavy context can still exceed the character cap at a given token budget: shrink until it fits.
  for (let budgetTokens = DEFAULT_BUDGET_TOKENS; budgetTokens >= 100; budgetTokens = Math.floor(budgetTokens * 0.75)) {
    const { text } = await buildContext({
      strata: options.strata,
      agentId: options.agentId,
      scopes: options.scopes,
      sessionKey: options.sessionKey,
      budgetTokens,
      now: options.now,
    });
    if (text.length <= maxChars) return text;
  }
  return '';
}
