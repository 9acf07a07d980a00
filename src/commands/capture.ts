import type { Command } from 'commander';
import { Option } from 'commander';
import { resolve } from 'node:path';
import { EXPECTED_LAYOUTS, detectSource, resetCursors, showCursors, type IngestSourceSpec, type IngestSummary } from '../capture/index.js';
import type { PipelineIngestOptions } from '../capture/pipeline.js';
import { describeAutoOrganize } from '../core/layers/auto-organize.js';
import { agentFlag, globals, remoteOps, withOps, withStrata } from './context.js';
import { resolveHome } from '../config/load.js';
import { formatScore } from '../core/ops/index.js';
import { printJson, printTable } from './output.js';
import { createProgress } from './progress.js';
import { parsePositiveInt } from './parse.js';
import { describeDistillSchedule } from './watch-notes.js';

const SOURCES = ['openclaw', 'claude-code', 'codex', 'jsonl', 'all'] as const;
type SourceName = (typeof SOURCES)[number];

interface IngestFlags {
  source: SourceName;
  path?: string;
  fromNow?: boolean;
  includeArchives?: boolean;
  includeSubagents?: boolean;
  dryRun?: boolean;
  embed: boolean;
}

async function ingestOptions(flags: IngestFlags, agent: string | undefined): Promise<PipelineIngestOptions> {
  if (flags.source === 'jsonl' && !flags.path) throw new Error('--source jsonl needs --path <dir or file>.');
  const root = flags.path ? resolve(flags.path) : undefined;
  // --path alone: read it as the host whose layout it has (it used to be ignored for the defaults).
  const kind = root && flags.source === 'all' ? await detectSource({ root, includeSubagents: flags.includeSubagents }) : flags.source;
  const source: IngestSourceSpec | SourceName = root && kind !== 'all' ? { kind, root } : kind;
  return {
    sources: [source],
    agentId: agent,
    fromNow: flags.fromNow,
    includeArchives: flags.includeArchives,
    includeSubagents: flags.includeSubagents,
    dryRun: flags.dryRun,
  };
}

/** A --path that held nothing for the chosen host is said, with the layouts that are read. */
function warnEmptyPath(flags: IngestFlags, s: IngestSummary): void {
  if (flags.path && s.files.found === 0)
    process.stderr.write(`no ${flags.source} transcripts found under ${resolve(flags.path)}. Expected: ${EXPECTED_LAYOUTS}.\n`);
}

function printSummary(s: IngestSummary, embedded?: { embedded: number; remaining: number }): void {
  const noise = Object.values(s.noise).reduce((a, b) => a + (b ?? 0), 0);
  const skipped = Object.values(s.skippedLines).reduce((a, b) => a + (b ?? 0), 0);
  process.stdout.write(
    `${s.dryRun ? '[dry run] ' : ''}files ${s.files.found} (read ${s.files.read}, unchanged ${s.files.unchanged}, vanished ${s.files.vanished}, deferred ${s.files.deferred}); ` +
      `new messages ${s.messages.new} (duplicates ${s.messages.duplicates}); skipped lines ${skipped}; noise dropped ${noise}; redactions ${s.redactions.total}; errors ${s.errors.length}\n`,
  );
  if (skipped > 0)
    process.stdout.write(
      `  skipped lines by reason: ${Object.entries(s.skippedLines)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n`,
    );
  if (noise > 0)
    process.stdout.write(
      `  noise by reason: ${Object.entries(s.noise)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}\n`,
    );
  if (embedded && (embedded.embedded > 0 || embedded.remaining > 0)) {
    process.stdout.write(`  conversation index: ${embedded.embedded} embedded, ${embedded.remaining} waiting for background embedding\n`);
  }
  for (const e of s.errors.slice(0, 10)) process.stdout.write(`  error: ${e.path}: ${e.message}\n`);
}

function addIngestFlags(cmd: Command): Command {
  return cmd
    .addOption(new Option('--source <source>', 'transcripts to read').choices(SOURCES).default('all'))
    .option('--path <dir>', 'read this folder instead of the host default (required for jsonl)')
    .option('--from-now', 'start new cursors at end of file (skip existing history)')
    .option('--include-archives', 'also read reset/deleted/.bak archives')
    .option('--include-subagents', 'also read Claude Code subagent transcripts')
    .option('--no-embed', 'do not embed conversation vectors now (leave it to watch/background)');
}

export function registerCaptureCommands(program: Command): void {
  addIngestFlags(
    program.command('ingest').description('read new transcript lines into the L0 conversation log (incremental, exactly once)'),
  )
    .option('--dry-run', 'parse and clean, but write nothing and move no cursor')
    .option('--reindex', 'also re-check the whole L0 log against the conversation index and index what is missing (repair)')
    .action(async (flags: IngestFlags & { reindex?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      // Remote mode: read and clean here (cursors stay in this machine's home), ship the messages to the service.
      const remote = await remoteOps(cmd);
      if (remote) {
        const { remoteIngest } = await import('../remote/capture.js');
        const { index: _index, ...options } = await ingestOptions(flags, agentFlag(g));
        const summary = await remoteIngest({ ...options, home: resolveHome({ home: g.home }), ops: remote });
        if (g.json) return printJson(summary);
        printSummary(summary);
        warnEmptyPath(flags, summary);
        if (summary.errors.length > 0) process.exitCode = 1;
        return;
      }
      await withStrata(cmd, async (strata) => {
        const progress = createProgress('ingest');
        const summary = await strata
          .ingest({
            ...(await ingestOptions(flags, agentFlag(g))),
            onProgress: (p) => progress.update(p.filesDone, p.filesTotal),
          })
          .finally(() => progress.stop());
        const reindexed = flags.reindex && !flags.dryRun ? await strata.indexConversations({ fromStart: true }) : undefined;
        const embedded = !flags.dryRun && flags.embed ? await strata.embedConversations({ batchSize: 64, budgetMs: 15_000 }) : undefined;
        if (!flags.dryRun) await strata.optimizeConversations();
        if (g.json) return printJson({ ...summary, reindexed, conversationIndex: embedded });
        printSummary(summary, embedded);
        warnEmptyPath(flags, summary);
        if (reindexed)
          process.stdout.write(
            `  reindex: ${reindexed.read} L0 messages checked, ${reindexed.inserted} added to the conversation index, ${reindexed.updated} rewritten\n`,
          );
        if (summary.errors.length > 0) process.exitCode = 1;
      });
    });

  addIngestFlags(program.command('watch').description('ingest continuously (file events with a polling fallback); Ctrl-C stops cleanly'))
    .option('--interval <ms>', 'polling interval', parsePositiveInt, 5000)
    .option('--no-distill', 'only capture; do not run the background distiller (nor the automatic scene organiser, see layers.organizer)')
    .action(async (flags: IngestFlags & { interval: number; distill: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const controller = new AbortController();
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        process.stderr.write(`watching (${flags.source}); Ctrl-C to stop\n`);
        if (flags.distill) process.stderr.write(`${describeDistillSchedule(strata.config.distill.scheduler)}\n`);
        const worker = strata.createWorker({
          distill: flags.distill,
          conversations: flags.embed,
          onOrganize: (r) => {
            if (r.status !== 'not-due') process.stderr.write(`${describeAutoOrganize(r)}\n`);
          },
          onEvent: (e) => {
            if ('error' in e) process.stderr.write(`${e.task} failed (will retry): ${(e.error as Error).message}\n`);
            else if (e.task === 'distill' && (e.report.admitted > 0 || e.report.errors.length > 0))
              process.stderr.write(`distilled: ${e.report.admitted} admitted, decisions ${JSON.stringify(e.report.decisions)}\n`);
            else if (e.task === 'summaries' && (e.report.chunksSummarised > 0 || e.report.failed > 0))
              process.stderr.write(
                `summaries: ${e.report.chunksSummarised} chunks summarised, merges ${JSON.stringify(e.report.merges)}, ${e.report.failed} failed\n`,
              );
          },
        });
        worker.start();
        const result = await strata.watch({
          ...(await ingestOptions({ ...flags, dryRun: false }, agentFlag(g))),
          abortSignal: controller.signal,
          pollIntervalMs: flags.interval,
          onRun: (s) => {
            if (s.messages.new > 0 || s.errors.length > 0) {
              if (g.json) process.stdout.write(JSON.stringify(s) + '\n');
              else printSummary(s);
            }
          },
          onError: (e) => process.stderr.write(`ingest run failed (will retry): ${(e as Error).message}\n`),
        });
        await worker.stop();
        process.stderr.write(`stopped after ${result.runs} runs; cursors committed\n`);
      });
    });

  program
    .command('sessions')
    .description('sessions in the L0 log, most recent first')
    .option('--host <host>', 'openclaw | claude-code | codex | jsonl | live')
    .option('--limit <n>', 'rows', parsePositiveInt, 50)
    .action(async (opts: { host?: never; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const sessions = (await strata.sessions({ agentId: agentFlag(g), host: opts.host })).slice(0, opts.limit);
        if (g.json) return printJson({ sessions });
        if (sessions.length === 0) return void process.stdout.write('no sessions recorded yet (run `strata ingest`)\n');
        printTable(
          ['host', 'agent', 'messages', 'last activity', 'session'],
          sessions.map((s) => [s.host, s.agentId, s.messages, new Date(s.lastTimestamp).toISOString().slice(0, 16), s.sessionKey]),
        );
      });
    });

  const conversations = program.command('conversations').description('the searchable conversation log');
  conversations
    .command('search')
    .description('search recorded conversation messages')
    .argument('<query>')
    .option('--session <key>', 'only this session')
    .option('--limit <n>', 'results (default 10, at most recall.maxLimit)', parsePositiveInt)
    .action(async (query: string, opts: { session?: string; limit?: number }, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const out = await ops.run('conversations', { query, limit: opts.limit, sessionKey: opts.session });
        if (g.json) return printJson(out);
        if (out.results.length === 0) return void process.stdout.write(`${out.note ?? 'no matching messages'}\n`);
        printTable(
          ['score', 'when', 'agent', 'role', 'text'],
          out.results.map((h) => [
            formatScore(h.score),
            new Date(h.record.timestamp).toISOString().slice(0, 16),
            h.record.agentId,
            h.record.role,
            h.record.content,
          ]),
        );
      });
    });

  const cursor = program.command('cursor').description('transcript read positions');
  cursor.command('show').action(async (_opts: unknown, cmd: Command) => {
    const g = globals(cmd);
    await withStrata(cmd, async (strata) => {
      const cursors = await showCursors({ home: strata.home });
      if (g.json) return printJson({ cursors });
      if (cursors.length === 0) return void process.stdout.write('no cursors yet\n');
      printTable(
        ['host', 'kind', 'committed', 'size', 'pending', 'path'],
        cursors.map((c) => [c.host, c.kind, c.committed, c.size ?? '-', c.pending ? 'yes' : '', c.path]),
      );
    });
  });
  cursor
    .command('reset')
    .description('forget cursors so files are re-read (dedupe keeps the log exact)')
    .option('--path-prefix <prefix>', 'only cursors of files under this path')
    .action(async (opts: { pathPrefix?: string }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const out = await resetCursors({ home: strata.home, pathPrefix: opts.pathPrefix ? resolve(opts.pathPrefix) : undefined });
        if (g.json) return printJson(out);
        process.stdout.write(`reset ${out.removed} cursor(s)\n`);
      });
    });
}
