/**
 * Automatic recall against a service, step for step what MemoryEngine.autoRecall does locally: the
 * same gate on the query, the `recall` operation (memories only), flagged memories never injected,
 * and the same escaped, token-budgeted block. The service decides the scopes (the token's).
 */
import type { OperationsRunner } from '../core/ops/index.js';
import { formatContextBlock } from '../core/recall/context-format.js';
import { shouldRecall } from '../core/recall/gate.js';
import type { RecallResult } from '../core/recall/types.js';
import { isAutoInjectable } from '../core/write/injection.js';

export async function remoteAutoRecall(
  ops: OperationsRunner,
  options: { query: string; limit?: number; maxTokens?: number; abortSignal?: AbortSignal },
): Promise<{ recalled: boolean; reason: string; block: string; result?: RecallResult }> {
  const gate = shouldRecall({ text: options.query });
  if (!gate.recall) return { recalled: false, reason: gate.reason, block: '' };
  // A long prompt is still a question: the operation caps queries, so the head is what is searched.
  const query = options.query.slice(0, ops.limits.queryMaxChars);
  const recalled = await ops.run(
    'recall',
    { query, conversations: false, ...(options.limit !== undefined ? { limit: options.limit } : {}) },
    { abortSignal: options.abortSignal },
  );
  const result = { ...recalled, results: recalled.results.filter((r) => isAutoInjectable(r.record)) };
  const block = formatContextBlock({ results: result.results, maxTokens: options.maxTokens ?? 800, now: new Date() });
  return { recalled: true, reason: gate.reason, block, result };
}
