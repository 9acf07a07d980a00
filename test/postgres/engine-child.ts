/**
 * One engine in its own process for two-engines.test.ts: opens Strata on the shared database,
 * then interleaves writes (memories in its agent's scope, conversation turns of its agent) with
 * reads, and prints what it wrote and what its reads saw as one JSON line.
 * argv: home url schema agent count
 */
import { Strata } from '../../src/strata.js';

const [home, url, schema, agent, countText] = process.argv.slice(2) as [string, string, string, string, string];
const count = Number(countText);
const strata = await Strata.open({
  home,
  env: { STRATA_POSTGRES_URL: url },
  overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
});
const scope = `agent:${agent}`;
const ids: string[] = [];
const leaks: string[] = [];
try {
  for (let i = 0; i < count; i++) {
    const [remembered] = await Promise.all([
      strata.remember({ text: `${agent} keeps item ${i} under codeword ${agent}x${i}`, scope, actor: agent }),
      strata.appendConversation({
        records: [
          {
            sessionKey: `agent:${agent}:main`,
            sessionId: `s-${agent}`,
            agentId: agent,
            host: 'openclaw',
            id: `m${i}`,
            role: 'user',
            content: `${agent} says turn ${i} about the shared topic`,
            timestamp: Date.now(),
            recordedAt: new Date().toISOString(),
          },
        ],
      }),
    ]);
    ids.push(remembered.id);
    if (i % 5 === 0) {
      // Reads while the other process writes: only this agent's scope and conversations come back.
      const recalled = await strata.recall({ query: 'item codeword shared topic', scopes: [scope], limit: 20 });
      leaks.push(...recalled.results.map((h) => h.record.scope).filter((s) => s !== scope));
      const turns = await strata.searchConversations({ query: 'shared topic', agentIds: [agent], limit: 20 });
      leaks.push(...turns.map((t) => t.record.agentId).filter((a) => a !== agent));
    }
  }
  process.stdout.write(`${JSON.stringify({ agent, ids, leaks })}\n`);
} finally {
  await strata.close();
}
