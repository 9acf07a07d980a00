/**
 * One organiser in its own process for two-organisers.test.ts: opens Strata on the shared
 * database (its own home, so its own machine in effect; every section follows the store, the
 * layer store included) with a scripted OpenAI-compatible model, runs one `strata.organize` for
 * agent main and prints the report's conflicts, memories processed and version.
 * argv: home url schema llmBaseURL
 */
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { Strata } from '../../src/strata.js';

const [home, url, schema, baseURL] = process.argv.slice(2) as [string, string, string, string];
const strata = await Strata.open({
  home,
  env: { STRATA_POSTGRES_URL: url },
  overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' } },
  llm: createOpenAIChat({ baseURL, model: 'scripted' }),
});
try {
  const report = await strata.organize({ agentId: 'main' });
  process.stdout.write(
    JSON.stringify({
      provider: strata.layerStore.provider,
      conflicts: report.conflicts,
      processed: report.memoriesProcessed,
      version: report.version,
    }) + '\n',
  );
} finally {
  await strata.close();
}
