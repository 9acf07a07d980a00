import type { Command } from 'commander';
import { executeHook } from '../../hosts/claude-code/run.js';
import { HOOK_EVENTS } from '../../hosts/claude-code/settings.js';
import { globals } from '../../commands/context.js';

export function registerHookCommand(program: Command): void {
  program
    .command('hook')
    .description(
      `Claude Code hook handler: reads the hook JSON on stdin (${HOOK_EVENTS.join(', ')}); installed by \`strata install claude-code\``,
    )
    .argument('<event>', `hook event: ${HOOK_EVENTS.join(' | ')}`)
    .option('--no-distill', 'capture only; do not distil afterwards')
    .option('--no-resident', 'run in this process instead of the resident Strata process of the home')
    .action(async (event: string, opts: { distill: boolean; resident: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await executeHook({
        event,
        home: g.home,
        agent: g.agent,
        distill: opts.distill,
        resident: opts.resident,
        verbose: g.verbose ?? false,
      });
    });
}
