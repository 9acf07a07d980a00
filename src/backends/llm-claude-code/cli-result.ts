import { z } from 'zod';
import type { LlmFinishReason, LlmMessage } from '../../spec/llm.js';

/**
 * The one JSON object `claude -p --output-format json` prints (checked on Claude Code 2.1.197 and
 * 2.1.331). Only the fields Strata reads are declared; the CLI adds others freely.
 */
export const cliResultSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  result: z.string().optional(),
  stop_reason: z.string().nullable().optional(),
  api_error_status: z.number().nullable().optional(),
  total_cost_usd: z.number().optional(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
    })
    .optional(),
});
export type CliResult = z.infer<typeof cliResultSchema>;

export function finishReasonOf(stopReason: string | null | undefined): LlmFinishReason {
  if (stopReason === 'end_turn' || stopReason === 'stop_sequence') return 'stop';
  if (stopReason === 'max_tokens') return 'length';
  if (stopReason === 'refusal') return 'content-filter';
  return 'other';
}

/** Every input token the call was billed for: fresh, written to the cache, and read from it. */
export function inputTokensOf(result: CliResult): number {
  const u = result.usage;
  return (u?.input_tokens ?? 0) + (u?.cache_creation_input_tokens ?? 0) + (u?.cache_read_input_tokens ?? 0);
}

/**
 * `claude -p` takes one prompt. A single user message goes as it is; a longer exchange (a repair
 * turn after invalid JSON, say) is written out as a labelled transcript the model continues.
 */
export function promptOf(messages: LlmMessage[]): string {
  const turns = messages.filter((m) => m.role !== 'system');
  if (turns.length === 1 && turns[0]!.role === 'user') return turns[0]!.content;
  const label = (m: LlmMessage) => (m.role === 'tool' ? `Result of ${m.toolName ?? 'tool'}` : m.role === 'user' ? 'User' : 'Assistant');
  const body = turns.map((m) => `### ${label(m)}\n${m.content}`).join('\n\n');
  return `${body}\n\n### Assistant\n(Write the next assistant reply only.)`;
}
