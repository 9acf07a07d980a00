/**
 * `strata summarize [--agent <id>] [--session <key>] [--json] [--dry-run]`: one hierarchical
 * summaries pass over the L0 log. Needs no memory store, so it only loads the config (no LanceDB).
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors/index.js';
import { loadConfig } from '../../config/load.js';
import { runSummaries, type SummaryRunReport } from '../../core/summaries/index.js';
import { createLlmFromConfig } from '../../strata.js';
import { agentFlag, globals } from '../../commands/context.js';
import { printJson, printTable } from '../../commands/output.js';

function printReport(report: SummaryRunReport): void {
  const out = (line: string) => process.stdout.write(line + '\n');
  const merges = Object.entries(report.merges).map(([level, n]) => `${n} into level ${level}`).join(', ') || 'none';
  out(`${report.dryRun ? 'dry run (nothing written, no LLM calls): would summarise' : 'summarised'} ${report.chunksSummarised} chunk(s) in ${report.sessionsVisited} session(s); merges: ${merges}; LLM calls: ${report.llmCalls}`);
  if (report.sessions.length > 0) {
    printTable(
      ['agent', 'chunks', 'merges', 'stopped', 'session'],
      report.sessions.map((s) => [
        s.agentId,
        s.chunksSummarised,
        Object.values(s.merges).reduce((a, b) => a + b, 0),
        s.stoppedBecause === 'partial-chunk-waiting' ? `partial chunk waiting (${s.waiting.tokens} tokens)` : s.stoppedBecause,
        s.sessionKey,
      ]),
    );
  }
  for (const s of report.sessions) if (s.error) out(`error in ${s.agentId} ${s.sessionKey}: [${s.error.code}] ${s.error.message}`);
}

export function registerSummarizeCommand(program: Command): void {
  program
    .command('summarize')
    .description('one hierarchical summaries pass: summarise old conversation chunks and merge summaries upward (use the global --agent to limit to one agent)')
    .option('--session <key>', 'only this session key')
    .option('--dry-run', 'plan only: count chunks and merges without LLM calls or writes')
    .action(async (opts: { session?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const loaded = await loadConfig({ home: g.home });
      const config = loaded.config.summaries;
      const llm = opts.dryRun ? undefined : createLlmFromConfig({ config: loaded.config, home: loaded.home });
      if (!opts.dryRun && !llm) {
        throw new ConfigError({
          field: 'llm.provider',
          message: 'strata summarize needs an LLM: set llm.provider and llm.model in config.json (or STRATA_LLM_PROVIDER / STRATA_LLM_MODEL), or pass --dry-run to only plan.',
        });
      }
      const report = await runSummaries({ home: loaded.home, llm, agentId: agentFlag(g), sessionKey: opts.session, config, dryRun: opts.dryRun });
      if (g.json) printJson(report);
      else printReport(report);
      if (report.failed > 0) process.exitCode = 1;
    });
}
