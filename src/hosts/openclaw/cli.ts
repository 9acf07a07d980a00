/**
 * `openclaw strata <command>`: Strata's own CLI commands mounted under OpenClaw's commander
 * program, with `--home` defaulting to the plugin's configured home. The command modules are the
 * same ones `strata` uses; only the root differs.
 */
import type { Command } from 'commander';
import { collect } from '../../cli/context.js';
import { registerAdminCommands } from '../../cli/commands/admin.js';
import { registerCaptureCommands } from '../../cli/commands/capture.js';
import { registerDistillCommands } from '../../cli/commands/distill.js';
import { registerHistoryCommands } from '../../cli/commands/history.js';
import { registerMemoryCommands } from '../../cli/commands/memories.js';
import { registerRecallCommand } from '../../cli/commands/recall.js';
import { registerTransferCommands } from '../../cli/commands/transfer.js';

export const CLI_COMMANDS = ['strata'];

export function registerStrataCli(options: { program: Command; home?: string; defaultAgent?: string }): Command {
  const strata = options.program
    .command('strata')
    .description('Strata memory: list, recall, store, forget, distill, history, export')
    .option('--home <dir>', 'Strata home', options.home)
    .option('--scope <scope>', 'scope to read/write (repeatable)', collect)
    .option('--agent <id>', 'act as this agent: reads global + agent:<id> + its grants, writes to agent:<id>', options.defaultAgent)
    .option('--json', 'stable machine-readable output')
    .option('--verbose', 'print stack traces on errors');
  registerMemoryCommands(strata);
  registerRecallCommand(strata);
  registerTransferCommands(strata);
  registerAdminCommands(strata);
  registerCaptureCommands(strata);
  registerDistillCommands(strata);
  registerHistoryCommands(strata);
  return strata;
}
