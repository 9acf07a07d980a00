/**
 * The operations the resident process serves. Hosts contribute theirs here; once the operations
 * layer (src/core/ops) lands, its operations join the table so the MCP server and the CLI can be
 * answered by the same warm process.
 */
import { claudeCodeResidentOps } from '../hosts/claude-code/resident-ops.js';
import type { Strata } from '../strata.js';
import type { ResidentOp } from './server.js';

export function residentOps(): Record<string, ResidentOp<Strata>> {
  return { ...claudeCodeResidentOps() };
}

/** A scope that holds nothing: the query is embedded (model loaded) and both indexes are opened. */
const WARM_UP_SCOPE = 'session:strata-resident-warm-up';

/** Until a recall really used the query vector (the model may take longer than one recall's embed timeout). */
export async function warmUp(strata: Strata): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const result = await strata.recall({ query: 'warm up the embedding model', scopes: [WARM_UP_SCOPE], limit: 1, explain: true });
    const vector = result.explain?.channels.vector;
    if (!vector || vector.used || !/timed out|timeout/i.test(vector.note ?? '')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
