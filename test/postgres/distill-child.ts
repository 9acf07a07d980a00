/**
 * One distiller in its own process for two-distillers.test.ts: opens Strata on the shared
 * database (its own home, so its own machine in effect) and runs small distillation runs until
 * the log has nothing left for it, then prints how many messages its runs distilled.
 * argv: home url schema stateProvider maxMessagesPerRun
 */
import { Strata } from '../../src/strata.js';

const [home, url, schema, state, maxText] = process.argv.slice(2) as [string, string, string, 'files' | 'postgres', string];
const strata = await Strata.open({
  home,
  env: { STRATA_POSTGRES_URL: url },
  overrides: {
    store: { provider: 'postgres', postgres: { schema } },
    state: { provider: state },
    embedder: { provider: 'none' },
    llm: { provider: 'none' },
  },
});
let distilled = 0;
let runs = 0;
let locked = 0;
try {
  for (let idle = 0; idle < 3;) {
    try {
      // Waits for the other process's run rather than failing fast: both keep working until the log is done.
      const report = await strata.distill({ lockTimeoutMs: 20_000, caps: { maxMessagesPerRun: Number(maxText) } });
      runs += 1;
      distilled += report.messages.distilled;
      idle = report.messages.read === 0 ? idle + 1 : 0;
    } catch (error) {
      if ((error as { code?: string }).code !== 'STORE_LOCKED') throw error;
      locked += 1;
    }
  }
  process.stdout.write(`${JSON.stringify({ distilled, runs, locked })}\n`);
} finally {
  await strata.close();
}
