import type { DistillReport } from '../core/distill/index.js';

/**
 * Why a distillation found nothing, in words: no new conversation, everything already distilled,
 * the budget, or the rules path (no LLM) finding no explicit statement. Undefined when it found some.
 */
export function whyNothingFound(report: DistillReport, context: { agentId?: string }): string | undefined {
  if (report.candidates > 0 || report.errors.length > 0) return undefined;
  const who = context.agentId ? ` of agent ${context.agentId}` : '';
  if (report.messages.read === 0) {
    return `nothing to distill: no new messages${who} in the conversation log since the last run (capture them with \`strata ingest\`, or \`strata sessions\` to see what is recorded).`;
  }
  if (report.budget.exhausted) return 'nothing distilled: the distillation budget is spent; pending messages wait for the next run.';
  if (report.mode === 'rules') {
    return `0 candidates in ${report.messages.read} new messages: without an LLM only explicit statements are learned ("remember that ...", "I prefer ...", "always/never ..."). Configure llm.provider and llm.model to extract facts from ordinary conversation.`;
  }
  return `0 candidates in ${report.messages.read} new messages: the LLM found nothing durable (small talk, questions and one-off task details are left out by design).`;
}
