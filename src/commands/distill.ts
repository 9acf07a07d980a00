import type { Command } from 'commander';
import type { DistillReport } from '../core/distill/index.js';
import { describeAutoOrganize } from '../core/layers/auto-organize.js';
import { agentFlag, globals, withStrata } from './context.js';
import { printJson, printTable } from './output.js';
import { whyNothingFound } from './distill-why.js';

export function printDistillReport(report: DistillReport): void {
  const out = (line: string) => process.stdout.write(line + '\n');
  out(
    `${report.dryRun ? 'dry run (nothing written)' : 'distilled'} with ${report.mode === 'llm' ? 'LLM extraction' : 'rule-based capture (no LLM configured)'}`,
  );
  out(`messages: ${report.messages.read} read, ${report.messages.distilled} distilled, ${report.messages.pending} pending`);
  out(`candidates: ${report.candidates}, admitted: ${report.admitted}, rejected: ${report.rejected.total}`);
  const decisions = Object.entries(report.decisions).filter(([, n]) => n > 0);
  if (decisions.length > 0) printTable(['decision', 'count'], decisions);
  const reasons = Object.entries(report.rejected.byReason);
  if (reasons.length > 0)
    printTable(
      ['rejected', 'count'],
      reasons.map(([r, n]) => [r, n ?? 0]),
    );
  if (report.mode === 'llm') {
    out(
      `LLM: ${report.llmCalls} call(s), ${report.tokens.input} in + ${report.tokens.output} out tokens, cost ${report.cost === null ? 'unknown (no price)' : `$${report.cost.toFixed(4)}`}`,
    );
  }
  if (report.budget.exhausted)
    out(
      `budget spent (${report.budget.limit})${report.budget.resumeAt ? `; resumes after ${report.budget.resumeAt}` : ''}: pending messages wait for the next run`,
    );
  for (const e of report.errors) out(`error in ${e.stage} (${e.sessionKey}): [${e.code}] ${e.message}`);
}

export function registerDistillCommands(program: Command): void {
  program
    .command('distill')
    .description(
      'turn new conversation (the L0 log) into memories once; reports decisions, tokens and cost (use the global --agent to limit to one agent)',
    )
    .option('--dry-run', 'decide but write nothing (LLM calls still happen and are counted)')
    .option('--no-organize', 'do not run the scene organiser afterwards, even when layers.organizer says it is due')
    .action(async (opts: { dryRun?: boolean; organize: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const report = await strata.distill({ agentId: agentFlag(g), dryRun: opts.dryRun, lockTimeoutMs: 30_000 });
        // The Claude Code hooks run this command as their background process: organise when due.
        if (opts.organize)
          await strata.organizeIfDue({
            report,
            onResult: (r) => r.status !== 'not-due' && process.stderr.write(`${describeAutoOrganize(r)}\n`),
          });
        if (g.json) return printJson(report);
        printDistillReport(report);
        const why = whyNothingFound(report, { agentId: g.agent });
        if (why) process.stdout.write(why + '\n');
        if (report.errors.length > 0) process.exitCode = 1;
      });
    });
}
