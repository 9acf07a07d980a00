/**
 * `strata worker [--once] [--journal-session <id> --transcript <path>]`: the background worker
 * (conversation indexing and embedding, distillation with the organiser, summaries, journal
 * entries). `--once` does one pass and exits: the process a Claude Code hook starts.
 */
import type { Command } from 'commander';
import { describeAutoOrganize } from '../../core/layers/auto-organize.js';
import type { WorkerEvent } from '../../core/worker/background-worker.js';
import { agentFlag, globals, withStrata } from '../../commands/context.js';
import { printJson } from '../../commands/output.js';
import { printDistillReport } from '../../commands/distill.js';

function describe(e: WorkerEvent): string | undefined {
  if ('error' in e) return `${e.task} failed (will retry): ${(e.error as Error)?.message ?? String(e.error)}`;
  if (e.task === 'conversations') return `conversations: ${e.indexed} indexed, ${e.embedded} embedded, ${e.remaining} waiting for vectors`;
  if (e.task === 'summaries')
    return e.report.chunksSummarised > 0 ? `summaries: ${e.report.chunksSummarised} chunks summarised` : undefined;
  if (e.task === 'journal')
    return `journal: ${e.result.status}${e.result.reason ? ` (${e.result.reason})` : ''}${e.result.path ? ` -> ${e.result.path}` : ''}`;
  return undefined;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the background worker: index and embed conversations, distil, organise, summarise, write journal entries')
    .option('--once', 'one pass of every task, then exit')
    .option('--no-distill', 'no distillation, organiser or summaries')
    .option('--journal-session <id>', 'also write the journal entry of this session (with --once)')
    .option('--transcript <path>', 'the host transcript of --journal-session (default: the L0 log)')
    .action(async (opts: { once?: boolean; distill: boolean; journalSession?: string; transcript?: string }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const log = (line: string | undefined) => line && process.stderr.write(`${line}\n`);
        const worker = strata.createWorker({
          distill: opts.distill,
          onOrganize: (r) => r.status !== 'not-due' && log(describeAutoOrganize(r)),
          onEvent: (e) => {
            if (!opts.once || 'error' in e) log(describe(e));
          },
        });
        if (opts.once) {
          const journal = opts.journalSession
            ? [{ sessionId: opts.journalSession, agentId: agentFlag(g), transcriptPath: opts.transcript }]
            : [];
          const report = await worker.runOnce({ journal });
          await worker.stop();
          if (g.json) return printJson(report);
          if (report.conversations) log(describe({ task: 'conversations', ...report.conversations }));
          for (const result of report.journal) log(describe({ task: 'journal', result }));
          if (report.distill) printDistillReport(report.distill);
          if (report.summaries) log(describe({ task: 'summaries', report: report.summaries }));
          if (report.errors.length > 0) process.exitCode = 1;
          return;
        }
        const controller = new AbortController();
        process.once('SIGINT', () => controller.abort());
        process.once('SIGTERM', () => controller.abort());
        worker.start();
        process.stderr.write('worker running; Ctrl-C to stop\n');
        await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
        await worker.stop();
      });
    });
}
