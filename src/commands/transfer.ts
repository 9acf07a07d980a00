import type { Command } from 'commander';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidArgumentError } from '../errors/index.js';
import { once } from 'node:events';
import { rename, unlink } from 'node:fs/promises';
import { globals, withOps, withStrata } from './context.js';
import { printJson } from './output.js';
import { createProgress } from './progress.js';

async function openOutput(tmp: string, target: string): Promise<WriteStream> {
  const stream = createWriteStream(tmp);
  try {
    await once(stream, 'open');
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new InvalidArgumentError({ argument: '--output', message: `Cannot write ${target}: ${e.code === 'ENOENT' ? `folder ${dirname(target)} does not exist` : e.code === 'EACCES' ? 'permission denied' : e.message}.`, cause: error });
  }
  return stream;
}

export function registerTransferCommands(program: Command): void {
  program
    .command('export')
    .description("stream the caller's memories as JSONL (its scopes; --all-scopes: the whole store)")
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--current-only', 'leave out superseded memories')
    .action(async (opts: { output?: string; currentOnly?: boolean }, cmd: Command) => {
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
          for await (const line of lines) {
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
    .description('import JSONL (validates every line, reports bad lines, skips ids already present)')
    .argument('<file>', 'JSONL file, or - for stdin')
    .option('--batch-size <n>', 'lines per write batch', (v) => Number.parseInt(v, 10), 500)
    .action(async (file: string, opts: { batchSize: number }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const input = file === '-' ? process.stdin : createReadStream(file);
        const progress = createProgress('import');
        const report = await strata.import({ input, batchSize: opts.batchSize, onProgress: (e) => progress.update(e.done) }).finally(() => progress.stop());
        // Bad lines are reported and the rest imported; the exit code still tells a script something was skipped.
        if (report.invalid.length > 0) process.exitCode = 1;
        if (g.json) return printJson(report);
        process.stdout.write(
          `lines ${report.lines}, imported ${report.imported}, already present ${report.skippedExisting}, duplicates ${report.skippedDuplicate}, invalid ${report.invalid.length}\n`,
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
          const report = await strata.reembed({ onProgress: (e) => progress.update(e.done, e.total) }).finally(() => progress.stop());
          if (g.json) return printJson(report);
          process.stdout.write(`re-embedded ${report.rows} memories with ${report.embedderId} (${report.dimensions}-d)\n`);
        },
        { allowEmbedderMismatch: true },
      );
    });
}
