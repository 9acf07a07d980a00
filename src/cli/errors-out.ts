/**
 * How the `strata` binary ends on an error: one line on stderr (`error [CODE]: message`), and under
 * `--json` also a JSON error object on stdout, so a script reading stdout gets JSON either way.
 * Plus the guard that makes `strata ... | head -1` end quietly instead of dying on EPIPE.
 */
import { CommanderError } from 'commander';
import { describeError, errorText } from '../core/ops/index.js';
import { StrataError } from '../errors/index.js';

/** A reader that went away (`| head`) is a normal end of output, not a failure. */
export function installPipeGuard(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw error;
    });
  }
}

/** Node's own errors (ENOENT, EACCES...) read as one sentence naming the path. */
function fileSystemMessage(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException;
  if (!(error instanceof Error) || typeof e.code !== 'string' || typeof e.syscall !== 'string') return undefined;
  const path = e.path ? ` ${e.path}` : '';
  const why: Record<string, string> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent is not a directory',
    EEXIST: 'already exists',
    ENOSPC: 'no space left on the device',
  };
  return `Cannot ${e.syscall}${path}: ${why[e.code] ?? e.code}.`;
}

export function reportError(error: unknown, options: { json: boolean; verbose: boolean; exitCode: number }): void {
  if (error instanceof CommanderError) {
    // commander already printed its one line; under --json the same error as an object too.
    if (options.json && error.exitCode !== 0) writeJson({ code: 'INVALID_ARGUMENT', message: error.message.replace(/^error: /, '') });
    return;
  }
  const fsMessage = StrataError.isInstance(error) ? undefined : fileSystemMessage(error);
  const info = fsMessage ? { code: 'IO', message: fsMessage } : describeError(error);
  process.stderr.write((fsMessage ? `error [IO]: ${fsMessage}` : errorText(error)) + '\n');
  if (options.json) writeJson(info);
  if (options.verbose && error instanceof Error) {
    process.stderr.write((error.stack ?? '') + '\n');
    if (error.cause) process.stderr.write(`cause: ${error.cause instanceof Error ? error.cause.stack : String(error.cause)}\n`);
  }
}

function writeJson(info: { code: string; message: string }): void {
  process.stdout.write(JSON.stringify({ error: info }, null, 2) + '\n');
}
