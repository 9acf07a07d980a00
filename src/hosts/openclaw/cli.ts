/**
 * `openclaw strata <command>`: Strata's engine commands (src/commands, the same ones `strata`
 * uses) mounted under OpenClaw's commander program, with `--home`, `--agent` and `--url` defaulting to
 * the plugin's configured home, default agent and `remote.url`.
 */
import type { Command } from 'commander';
import { addGlobalOptions, registerEngineCommands } from '../../commands/index.js';

export const CLI_COMMANDS = ['strata'];

export function registerStrataCli(options: { program: Command; home?: string; defaultAgent?: string; url?: string }): Command {
  const strata = addGlobalOptions(
    options.program.command('strata').description('Strata memory: list, recall, store, forget, distill, history, export'),
    {
      home: options.home,
      agent: options.defaultAgent,
      url: options.url,
    },
  );
  registerEngineCommands(strata);
  return strata;
}
