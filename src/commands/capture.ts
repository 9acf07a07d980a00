import type { Command } from 'commander';
import { Option } from 'commander';
import { resolve } from 'node:path';
import { ingest, listSessions, resetCursors, showCursors, watch, type IngestOptions, type IngestSourceSpec, type IngestSummary } from '../capture/index.js';
import type { L0Record } from '../spec/conversation.js';
import { describeAutoOrganize } from '../core/layers/auto-organize.js';
import type { Strata } from '../strata.js';
import { agentFlag, globals, withOps, withStrata } from './context.js';
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

function ingestOptions(strata: Strata, flags: IngestFlags, agent: string | undefined): Omit<IngestOptions, 'onRecords'> {
  if (flags.source === 'jsonl' && !flags.path) throw new Error('--source jsonl needs --path <dir or file>.');
  const source: IngestSourceSpec | SourceName =
    flags.path && flags.source !== 'all' ? { kind: flags.source, root: resolve(flags.path) } : flags.source;
  return {
    home: strata.home,
    sources: [source],
    agentId: agent,
    fromNow: flags.fromNow,
    includeArchives: flags.includeArchives,
    includeSubagents: flags.includeSubagents,
    dryRun: flags.dryRun,
  };
}

/** Feeds new L0 records to the conversation index: full text at once, vectors later. */
function indexFeeder(strata: Strata): (records: L0Record[]) => Promise<void> {
  return async (records) => {
    await (await strata.conversationIndex()).add({ records });
  };
}

/** Embeds pending conversation vectors for at most `budgetMs`, so ingest stays quick. */
async function embedPending(strata: Strata, budgetMs: number): Promise<{ embedded: number; remaining: number }> {
  const index = await strata.conversationIndex();
  const deadline = Date.now() + budgetMs;
  let embedded = 0;
  for (;;) {
    const out = await index.embedPending({ batchSize: 64 });
    embedded += out.embedded;
    if (out.embedded === 0 || out.remaining === 0 || Date.now() >= deadline) return { embedded, remaining: out.remaining };
  }
}

function printSummary(s: IngestSummary, embedded?: { embedded: number; remaining: number }): void {
  const noise = Object.values(s.noise).reduce((a, b) => a + (b ?? 0), 0);
  const skipped = Object.values(s.skippedLines).reduce((a, b) => a + (b ?? 0), 0);
  process.stdout.write(
    `${s.dryRun ? '[dry run] ' : ''}files ${s.files.found} (read ${s.files.read}, unchanged ${s.files.unchanged}, vanished ${s.files.vanished}, deferred ${s.files.deferred}); ` +
      `new messages ${s.messages.new} (duplicates ${s.messages.duplicates}); skipped lines ${skipped}; noise dropped ${noise}; redactions ${s.redactions.total}; errors ${s.errors.length}\n`,
  );
  if (skipped > 0) process.stdout.write(`  skipped lines by reason: ${Object.entries(s.skippedLines).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
  if (noise > 0) process.stdout.write(`  noise by reason: ${Object.entries(s.noise).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
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
  addIngestFlags(program.command('ingest').description('read new transcript lines into the L0 conversation log (incremental, exactly once)'))
    .option('--dry-run', 'parse and clean, but write nothing and move no cursor')
    .action(async (flags: IngestFlags, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const progress = createProgress('ingest');
        const summary = await ingest({
          ...ingestOptions(strata, flags, agentFlag(g)),
          onProgress: (p) => progress.update(p.filesDone, p.filesTotal),
          onRecords: flags.dryRun ? undefined : indexFeeder(strata),
        }).finally(() => progress.stop());
        const embedded = !flags.dryRun && flags.embed ? await embedPending(strata, 15_000) : undefined;
        if (g.json) return printJson({ ...summary, conversationIndex: embedded });
        printSummary(summary, embedded);
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
        const scheduler = flags.distill
          ? strata.createDistillScheduler({
              onReport: (r) => {
                if (r.admitted > 0 || r.errors.length > 0) process.stderr.write(`distilled: ${r.admitted} admitted, decisions ${JSON.stringify(r.decisions)}\n`);
              },
              onError: (e) => process.stderr.write(`distill failed (will retry): ${(e as Error).message}\n`),
              onOrganize: (r) => {
                if (r.status !== 'not-due') process.stderr.write(`${describeAutoOrganize(r)}\n`);
              },
              organizeSignal: controller.signal, // Ctrl-C cuts an organiser run short (its scenes are restored)
            })
          : undefined;
        scheduler?.start();
        const summaries = flags.distill
          ? strata.createSummaryWorker({
              onReport: (r) => {
                if (r.chunksSummarised > 0 || r.failed > 0) process.stderr.write(`summaries: ${r.chunksSummarised} chunks summarised, merges ${JSON.stringify(r.merges)}, ${r.failed} failed\n`);
              },
              onError: (e) => process.stderr.write(`summaries failed (will retry): ${(e as Error).message}\n`),
            })
          : undefined;
        summaries?.start();
        const result = await watch({
          ...ingestOptions(strata, { ...flags, dryRun: false }, agentFlag(g)),
          abortSignal: controller.signal,
          pollIntervalMs: flags.interval,
          onRecords: indexFeeder(strata),
          onRun: (s) => {
            if (s.messages.new > 0 || s.errors.length > 0) {
              if (g.json) process.stdout.write(JSON.stringify(s) + '\n');
              else printSummary(s);
            }
            if (flags.embed) void embedPending(strata, 5_000).catch(() => undefined);
            if (s.messages.new > 0) scheduler?.notify({ messages: s.messages.new });
          },
          onError: (e) => process.stderr.write(`ingest run failed (will retry): ${(e as Error).message}\n`),
        });
        await Promise.all([scheduler?.stop(), summaries?.stop()]);
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
        const sessions = (await listSessions({ home: strata.home, agentId: agentFlag(g), host: opts.host })).slice(0, opts.limit);
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
          out.results.map((h) => [formatScore(h.score), new Date(h.record.timestamp).toISOString().slice(0, 16), h.record.agentId, h.record.role, h.record.content]),
        );
      });
    });

  const cursor = program.command('cursor').description('transcript read positions');
  cursor
    .command('show')
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const cursors = await showCursors({ home: strata.home });
        if (g.json) return printJson({ cursors });
        if (cursors.length === 0) return void process.stdout.write('no cursors yet\n');
        printTable(['host', 'kind', 'committed', 'size', 'pending', 'path'], cursors.map((c) => [c.host, c.kind, c.committed, c.size ?? '-', c.pending ? 'yes' : '', c.path]));
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
