/**
 * `strata journal flush|compile|lint|show`: the human-readable daily journal and the knowledge
 * articles compiled from it. Exit codes: flush 1 when generation failed (its input is kept as a
 * pending flush for the next one); lint 1 when broken links or orphan articles exist; show 1 when
 * the day or article does not exist.
 */
import type { Command } from 'commander';
import { SOURCE_KINDS, type SourceKind } from '../../capture/readers/index.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { agentFlag, globals, withStrata } from '../../commands/context.js';
import { printJson } from '../../commands/output.js';

function parseFormat(value: string): SourceKind {
  if (!(SOURCE_KINDS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError({
      argument: '--format',
      message: `Unknown transcript format ${JSON.stringify(value)}: use ${SOURCE_KINDS.join(', ')}.`,
    });
  }
  return value as SourceKind;
}

export function registerJournalCommands(program: Command): void {
  const journal = program
    .command('journal')
    .description("daily journal: flush a session into today's log, compile logs into linked articles, lint them");

  journal
    .command('flush')
    .description('write a structured journal entry for what a session said since its last flush (from --transcript, else the L0 log)')
    .requiredOption('--session <id>', 'session id')
    .option('--transcript <path>', 'host transcript file (Claude Code, Codex, OpenClaw or generic JSONL); default: the L0 capture log')
    .option('--format <kind>', `transcript format (${SOURCE_KINDS.join(', ')}); default: detected`, parseFormat)
    .action(async (opts: { session: string; transcript?: string; format?: SourceKind }, cmd: Command) => {
      const g = globals(cmd);
      const result = await withStrata(cmd, (strata) =>
        strata.flushJournal({ sessionId: opts.session, agentId: agentFlag(g), transcriptPath: opts.transcript, format: opts.format }),
      );
      if (result.status === 'failed') process.exitCode = 1;
      if (g.json) return printJson(result);
      const where = result.path ? ` -> ${result.path}` : '';
      const pending =
        result.pending.retried > 0
          ? ` (pending retried ${result.pending.retried}, written ${result.pending.written}, left ${result.pending.remaining})`
          : '';
      if (result.status === 'skipped') process.stdout.write(`skipped: ${result.reason ?? ''}${pending}\n`);
      else if (result.status === 'failed') process.stderr.write(`flush failed: ${result.reason ?? ''}\n`);
      else
        process.stdout.write(
          `${result.status}: ${result.newMessages} new messages${result.omittedMessages ? ` (${result.omittedMessages} over budget)` : ''}${where}${pending}\n`,
        );
    });

  journal
    .command('compile')
    .description('turn changed day logs into linked knowledge articles (journal/knowledge/, with index.md)')
    .option('--force', 'ignore the minimum interval between compiles (never the change check)')
    .action(async (opts: { force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const result = await withStrata(cmd, (strata) => strata.compileJournal({ force: opts.force === true }));
      if (g.json) return printJson(result);
      if (result.status === 'skipped') return void process.stdout.write(`skipped: ${result.reason ?? ''}\n`);
      process.stdout.write(
        `compiled ${result.days.join(', ')}: created ${result.created.length}, updated ${result.updated.length} (${result.articles} articles)\n`,
      );
      for (const [label, list] of [
        ['created', result.created],
        ['updated', result.updated],
      ] as const) {
        if (list.length) process.stdout.write(`  ${label}: ${list.join(', ')}\n`);
      }
      for (const r of result.rejected) process.stdout.write(`  rejected ${r.slug}: ${r.reason}\n`);
    });

  journal
    .command('lint')
    .description('report broken [[links]] and orphan articles in the compiled knowledge (exit code 1 when any)')
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      const result = await withStrata(cmd, (strata) => strata.lintJournal());
      if (!result.ok) process.exitCode = 1;
      if (g.json) return printJson(result);
      for (const b of result.brokenLinks) process.stdout.write(`broken link: ${b.from} -> [[${b.target}]]\n`);
      for (const o of result.orphans) process.stdout.write(`orphan: ${o} (no inbound link, not in the index)\n`);
      process.stdout.write(
        result.ok
          ? `ok: ${result.articles} articles, no problems\n`
          : `${result.brokenLinks.length} broken links, ${result.orphans.length} orphans\n`,
      );
    });

  journal
    .command('show [day]')
    .description('print a day log (YYYY-MM-DD), an article (--article) or the knowledge index (--index); without any, list them')
    .option('--article <slug>', 'print one compiled article')
    .option('--index', 'print the knowledge index')
    .action(async (day: string | undefined, opts: { article?: string; index?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day))
        throw new InvalidArgumentError({ argument: 'day', message: `A journal day is YYYY-MM-DD (got ${JSON.stringify(day)}).` });
      type Shown = { what: string; text: string | undefined } | { days: string[]; articles: string[] };
      const shown = await withStrata(cmd, async ({ journalStore: store }): Promise<Shown> => {
        if (day !== undefined) return { what: `day ${day}`, text: await store.readDay(day) };
        if (opts.article !== undefined)
          return { what: `article ${opts.article}`, text: (await store.readArticles()).find((a) => a.slug === opts.article)?.text };
        if (opts.index) return { what: 'the knowledge index', text: await store.readIndex() };
        return { days: await store.days(), articles: (await store.readArticles()).map((a) => a.slug) };
      });
      if ('days' in shown) {
        if (g.json) return printJson(shown);
        process.stdout.write(`days: ${shown.days.join(', ') || '(none)'}\narticles: ${shown.articles.join(', ') || '(none)'}\n`);
        return;
      }
      if (shown.text === undefined) {
        process.exitCode = 1;
        process.stderr.write(`The journal has no ${shown.what}; \`strata journal show\` lists what it has.\n`);
        return;
      }
      if (g.json) return printJson({ text: shown.text });
      process.stdout.write(shown.text.endsWith('\n') ? shown.text : `${shown.text}\n`);
    });
}
