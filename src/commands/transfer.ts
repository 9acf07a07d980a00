import type { Command } from 'commander';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidArgumentError, StrataError } from '../errors/index.js';
import { once } from 'node:events';
import { readFile, rename, stat, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Option } from 'commander';
import { convertExport, MIGRATION_SOURCES, type MigrationSource } from './migrate/convert.js';
import { collectCategory } from './parse.js';
import { globals, withOps, withStrata } from './context.js';
import { printJson } from './output.js';
import { createProgress } from './progress.js';

async function openOutput(tmp: string, target: string): Promise<WriteStream> {
  const stream = createWriteStream(tmp);
  try {
    await once(stream, 'open');
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new InvalidArgumentError({
      argument: '--output',
      message: `Cannot write ${target}: ${e.code === 'ENOENT' ? `folder ${dirname(target)} does not exist` : e.code === 'EACCES' ? 'permission denied' : e.message}.`,
      cause: error,
    });
  }
  return stream;
}

interface ImportSource {
  input: Readable;
  total?: number;
  unit: 'bytes' | 'items';
  bytesRead(): number;
  skipped: number[];
}

/** A file streams with a byte-based progress total; another system's export is converted first (it is one JSON document). */
async function importSource(file: string, from: MigrationSource | undefined): Promise<ImportSource> {
  if (from) {
    const text = file === '-' ? await new Response(Readable.toWeb(process.stdin) as ReadableStream).text() : await readFile(file, 'utf8');
    const { lines, skipped } = convertExport(text, from);
    return { input: Readable.from(lines.map((l) => l + '\n')), total: lines.length, unit: 'items', bytesRead: () => 0, skipped };
  }
  if (file === '-') return { input: process.stdin, unit: 'items', bytesRead: () => 0, skipped: [] };
  const size = (await stat(file)).size;
  const input = createReadStream(file);
  return { input, total: size, unit: 'bytes', bytesRead: () => input.bytesRead, skipped: [] };
}

export function registerTransferCommands(program: Command): void {
  program
    .command('export')
    .description("stream the caller's memories as JSONL (its scopes; --all-scopes: the whole store)")
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--current-only', 'leave out superseded memories')
    .option('--category <category>', 'only this category (repeatable)', collectCategory)
    .action(async (opts: { output?: string; currentOnly?: boolean; category?: string[] }, cmd: Command) => {
      await withOps(cmd, async (ops) => {
        const tmp = opts.output ? `${opts.output}.tmp-${process.pid}` : undefined;
        // Open the file first: a missing folder is a one-line error before any work is done.
        const file = tmp ? await openOutput(tmp, opts.output!) : undefined;
        const lines = await ops.run('export', { includeHistory: !opts.currentOnly }).catch(async (error: unknown) => {
          if (tmp) await unlink(tmp).catch(() => undefined);
          throw error;
        });
        const out = file ?? process.stdout;
        const progress = opts.output ? createProgress('export') : { update() {}, stop() {} };
        let n = 0;
        try {
          const categories = opts.category ? new Set(opts.category) : undefined;
          for await (const line of lines) {
            if (categories && !categories.has((JSON.parse(line) as { category: string }).category)) continue;
            if (!out.write(line)) await once(out, 'drain');
            if (++n % 500 === 0) progress.update(n);
          }
          progress.update(n);
          if (tmp && opts.output) {
            out.end();
            await once(out, 'finish');
            await rename(tmp, opts.output);
          }
        } catch (error) {
          if (tmp) await unlink(tmp).catch(() => undefined);
          throw error;
        } finally {
          progress.stop();
        }
        const what = ops.caller.owner ? 'every scope' : ops.caller.scopes.join(', ');
        if (opts.output) process.stderr.write(`exported ${n} memories of ${what} to ${opts.output}\n`);
      });
    });

  program
    .command('import')
    .description(
      'import JSONL (validates every line, reports bad lines, skips ids already present); --from converts a mem0 or memory-lancedb-pro export',
    )
    .argument('<file>', 'JSONL file, or - for stdin')
    .option('--batch-size <n>', 'lines per write batch', (v) => Number.parseInt(v, 10), 500)
    .addOption(
      new Option('--from <system>', 'the file is an export of another memory system (timestamps and scopes kept)').choices(
        MIGRATION_SOURCES,
      ),
    )
    .option('--dry-run', 'validate and count what would be imported; write nothing')
    .action(async (file: string, opts: { batchSize: number; from?: MigrationSource; dryRun?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      // The global --scope names where every imported memory goes (one scope).
      if ((g.scope ?? []).length > 1)
        throw new InvalidArgumentError({ argument: '--scope', message: 'import takes one --scope: every imported memory goes there.' });
      const scope = g.scope?.[0];
      const source = await importSource(file, opts.from);
      await withStrata(cmd, async (strata) => {
        const progress = createProgress(opts.dryRun ? 'check' : 'import', source.total, { unit: source.unit });
        const onProgress =
          source.unit === 'bytes' ? () => progress.update(source.bytesRead()) : (e: { done: number }) => progress.update(e.done);
        const report = await strata
          .import({ input: source.input, batchSize: opts.batchSize, dryRun: opts.dryRun, scope, onProgress })
          .finally(() => progress.stop());
        // Bad lines are reported and the rest imported; the exit code still tells a script something was skipped.
        if (report.invalid.length > 0 || source.skipped.length > 0) process.exitCode = 1;
        if (g.json) return printJson({ ...report, ...(opts.from ? { from: opts.from, skippedRows: source.skipped } : {}) });
        const verb = opts.dryRun ? 'would import' : 'imported';
        process.stdout.write(
          `${opts.dryRun ? '[dry run] ' : ''}lines ${report.lines}, ${verb} ${report.imported}${scope ? ` into ${scope}` : ''}, already present ${report.skippedExisting}, duplicates ${report.skippedDuplicate}, invalid ${report.invalid.length}\n`,
        );
        if (source.skipped.length > 0)
          process.stdout.write(
            `  ${source.skipped.length} ${opts.from} rows without text skipped (rows ${source.skipped.slice(0, 10).join(', ')}${source.skipped.length > 10 ? ', ...' : ''})\n`,
          );
        for (const bad of report.invalid.slice(0, 20)) process.stdout.write(`  line ${bad.line}: ${bad.error}\n`);
        if (report.invalid.length > 20) process.stdout.write(`  … and ${report.invalid.length - 20} more\n`);
      });
    });

  program
    .command('reembed')
    .description('re-embed every memory with the configured embedder into a new table, swapped in atomically')
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(
        cmd,
        async (strata) => {
          const progress = createProgress('reembed');
          // Ctrl-C aborts between batches; the rebuild then drops its half-written table (no orphan left).
          const controller = new AbortController();
          const stop = () => {
            process.stderr.write('\nstopping: dropping the half-built table (the store is unchanged)\n');
            controller.abort();
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
          const report = await strata
            .reembed({ onProgress: (e) => progress.update(e.done, e.total), abortSignal: controller.signal })
            .catch((error: unknown) => {
              if (controller.signal.aborted)
                throw new StrataError({
                  code: 'ABORTED',
                  message: 'reembed interrupted; nothing changed (run it again to re-embed).',
                  cause: error,
                });
              throw error;
            })
            .finally(() => {
              progress.stop();
              process.off('SIGINT', stop);
              process.off('SIGTERM', stop);
            });
          if (g.json) return printJson(report);
          process.stdout.write(`re-embedded ${report.rows} memories with ${report.embedderId} (${report.dimensions}-d)\n`);
        },
        { allowEmbedderMismatch: true },
      );
    });
}
