/**
 * `strata summarize [--agent <id>] [--session <key>] [--json] [--dry-run]`: one hierarchical
 * summaries pass over the L0 log, through `Strata.summarize`.
 */
import type { Command } from 'commander';
import type { SummaryRunReport } from '../../core/summaries/index.js';
import { agentFlag, globals, withStrata } from '../../commands/context.js';
import { printJson, printTable } from '../../commands/output.js';

function printReport(report: SummaryRunReport): void {
  const out = (line: string) => process.stdout.write(line + '\n');
  const merges =
    Object.entries(report.merges)
      .map(([level, n]) => `${n} into level ${level}`)
      .join(', ') || 'none';
  out(
    `${report.dryRun ? 'dry run (nothing written, no LLM calls): would summarise' : 'summarised'} ${report.chunksSummarised} chunk(s) in ${report.sessionsVisited} session(s); merges: ${merges}; LLM calls: ${report.llmCalls}`,
  );
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
    .description(
      'one hierarchical summaries pass: summarise old conversation chunks and merge summaries upward (use the global --agent to limit to one agent)',
    )
    .option('--session <key>', 'only this session key')
    .option('--dry-run', 'plan only: count chunks and merges without LLM calls or writes')
    .action(async (opts: { session?: string; dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const report = await strata.summarize({ agentId: agentFlag(g), sessionKey: opts.session, dryRun: opts.dryRun });
        if (g.json) printJson(report);
        else printReport(report);
        if (report.failed > 0) process.exitCode = 1;
      });
    });
}
