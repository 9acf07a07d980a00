import { Command, CommanderError } from 'commander';
import { StrataError } from '../errors/index.js';
import { collect } from './context.js';
import { registerAdminCommands } from './commands/admin.js';
import { registerCaptureCommands } from './commands/capture.js';
import { registerDistillCommands } from './commands/distill.js';
import { registerHistoryCommands } from './commands/history.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerMemoryCommands } from './commands/memories.js';
import { registerRecallCommand } from './commands/recall.js';
import { registerTransferCommands } from './commands/transfer.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerServeCommand } from './commands/serve.js';
import { registerLayerCommands } from './commands/layers.js';
import { registerJournalCommands } from './commands/journal.js';
import { registerSummarizeCommand } from './commands/summarize.js';
import { registerHookCommand } from './commands/hook.js';
import { registerWorkerCommand } from './commands/worker.js';
import { registerInstallCommands } from './commands/install.js';
import { registerInstallOpenClawCommand, registerUninstallOpenClawCommand } from './commands/install-openclaw.js';

process.env.LANCEDB_LOG ??= 'error';

export function buildProgram(): Command {
  const program = new Command('strata')
    .description('Strata: memory for AI agents (embedded, offline by default)')
    .version('0.1.0')
    .option('--home <dir>', 'Strata home (default $STRATA_HOME, else ~/.strata)')
    .option('--scope <scope>', 'scope to read/write (repeatable): global, agent:<id>, user:<id>, project:<id>, session:<key>, custom:<name>', collect)
    .option('--agent <id>', "act as this agent: reads global + agent:<id> + its grants, writes to agent:<id>")
    .option('--json', 'stable machine-readable output')
    .option('--verbose', 'print stack traces on errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerMemoryCommands(program);
  registerRecallCommand(program);
  registerTransferCommands(program);
  registerAdminCommands(program);
  registerCaptureCommands(program);
  registerDistillCommands(program);
  registerHistoryCommands(program);
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
  return program;
}

/** Exit codes: 0 ok, 1 runtime error, 2 usage error (bad flags or arguments). */
function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (StrataError.isInstance(error) && (error.code === 'INVALID_ARGUMENT' || error.code === 'INVALID_SCOPE')) return 2;
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
    if (error instanceof CommanderError) return code; // commander already printed the message
    const verbose = argv.includes('--verbose');
    const message = StrataError.isInstance(error) ? `error [${error.code}]: ${error.message}` : `error: ${(error as Error).message ?? String(error)}`;
    process.stderr.write(message + '\n');
    if (verbose && error instanceof Error) {
      process.stderr.write((error.stack ?? '') + '\n');
      if (error.cause) process.stderr.write(`cause: ${error.cause instanceof Error ? error.cause.stack : String(error.cause)}\n`);
    }
    return code;
  }
}

const code = await main(process.argv);
// Exit explicitly (native LanceDB/TF.js handles can keep the loop alive) once stdout has drained.
process.stdout.write('', () => process.exit(code));
