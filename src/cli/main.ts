import { Command, CommanderError } from 'commander';
import { isUsageError } from '../core/ops/index.js';
import { StrataError } from '../errors/index.js';
import { addGlobalOptions, registerEngineCommands } from '../commands/index.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerServeCommand } from './commands/serve.js';
import { registerLayerCommands } from './commands/layers.js';
import { registerJournalCommands } from './commands/journal.js';
import { registerSummarizeCommand } from './commands/summarize.js';
import { registerHookCommand } from './commands/hook.js';
import { registerWorkerCommand } from './commands/worker.js';
import { registerInstallCommands } from './commands/install.js';
import { registerInstallOpenClawCommand, registerUninstallOpenClawCommand } from './commands/install-openclaw.js';
import { registerCompletionCommand } from './commands/completion.js';
import { installPipeGuard, reportError } from './errors-out.js';

process.env.LANCEDB_LOG ??= 'error';
installPipeGuard();

export function buildProgram(): Command {
  const program = addGlobalOptions(
    new Command('strata').description('Strata: memory for AI agents (embedded, offline by default)').version('0.1.0'),
  )
    .showHelpAfterError('(run with --help for usage)')
    // Usage errors read like every other host's: `error [INVALID_ARGUMENT]: ...` (exit code 2).
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'error [INVALID_ARGUMENT]: ')) })
    .exitOverride();
  registerEngineCommands(program);
  registerDemoCommand(program);
  registerMcpCommand(program);
  registerServeCommand(program);
  registerLayerCommands(program);
  registerSummarizeCommand(program);
  registerJournalCommands(program);
  registerHookCommand(program);
  registerWorkerCommand(program);
  registerInstallCommands(program);
  // After registerInstallCommands: mounts `openclaw` under the existing `install` command.
  registerInstallOpenClawCommand(program);
  registerUninstallOpenClawCommand(program);
  registerCompletionCommand(program);
  return program;
}

/** Exit codes: 0 ok, 1 runtime error, 2 usage error (bad flags or arguments). */
function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (StrataError.isInstance(error) && isUsageError(error.code)) return 2;
  if (StrataError.isInstance(error) && error.code === 'ABORTED') return 130; // interrupted (Ctrl-C), like a shell reports SIGINT
  return 1;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.commands.forEach((c) => c.exitOverride());
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const code = exitCodeFor(error);
    reportError(error, { json: argv.includes('--json'), verbose: argv.includes('--verbose'), exitCode: code });
    return code;
  }
}

const code = await main(process.argv);
// Exit explicitly (native LanceDB/TF.js handles can keep the loop alive) once stdout has drained.
process.stdout.write('', () => process.exit(code));
