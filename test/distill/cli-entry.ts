/**
 * A CLI entry with the root program's global options plus the distill and history commands, for
 * testing them in a real child process before they are wired into src/cli/main.ts.
 */
import { Command } from 'commander';
import { registerDistillCommands } from '../../src/cli/commands/distill.js';
import { registerHistoryCommands } from '../../src/cli/commands/history.js';
import { collect } from '../../src/cli/context.js';
import { StrataError } from '../../src/errors/index.js';

const program = new Command('strata')
  .option('--home <dir>')
  .option('--scope <scope>', 'scope', collect)
  .option('--agent <id>')
  .option('--json')
  .exitOverride();
registerDistillCommands(program);
registerHistoryCommands(program);
let code = 0;
try {
  await program.parseAsync(process.argv);
  code = typeof process.exitCode === 'number' ? process.exitCode : 0;
} catch (error) {
  process.stderr.write(`error [${StrataError.isInstance(error) ? error.code : 'UNKNOWN'}]: ${(error as Error).message}\n`);
  code = 1;
}
process.stdout.write('', () => process.exit(code));
