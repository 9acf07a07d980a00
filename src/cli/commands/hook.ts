import type { Command } from 'commander';
import { StrataError } from '../../errors/index.js';
import { HOOK_GUARD_ENV, hookAgentId, isGuarded, runClaudeCodeHook } from '../../hosts/claude-code/hook.js';
import { isHookEvent, parseHookPayload } from '../../hosts/claude-code/payload.js';
import { HOOK_EVENTS } from '../../hosts/claude-code/settings.js';
import { globals } from '../context.js';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** One line on stderr; the exit code stays 0 so a Strata problem never blocks the user's session. */
function note(event: string, message: string): void {
  process.stderr.write(`strata hook ${event}: ${message.replace(/\s+/g, ' ').trim()}\n`);
}

export function registerHookCommand(program: Command): void {
  program
    .command('hook')
    .description(`Claude Code hook handler: reads the hook JSON on stdin (${HOOK_EVENTS.join(', ')}); installed by \`strata install claude-code\``)
    .argument('<event>', `hook event: ${HOOK_EVENTS.join(' | ')}`)
    .option('--no-distill', 'capture only; do not start the background distillation')
    .action(async (event: string, opts: { distill: boolean }, cmd: Command) => {
      // Checked before anything else: a hook fired by Strata's own child processes must do nothing.
      if (isGuarded(process.env)) return;
      try {
        if (!isHookEvent(event)) return note(event, `unknown event; expected one of ${HOOK_EVENTS.join(', ')}.`);
        const payload = parseHookPayload(await readStdin());
        const g = globals(cmd);
        const env = { ...process.env, [HOOK_GUARD_ENV]: '1' };
        const outcome = await runClaudeCodeHook({
          event,
          payload,
          agentId: hookAgentId({ agent: g.agent, env: process.env }),
          home: g.home,
          env,
          launcher: opts.distill && process.argv[1] ? { execPath: process.execPath, execArgv: process.execArgv, cli: process.argv[1] } : undefined,
        });
        if (outcome.stdout) process.stdout.write(outcome.stdout + '\n');
        for (const e of outcome.ingest?.errors ?? []) note(event, `${e.path}: ${e.message}`);
        if (g.verbose && outcome.ingest) note(event, `captured ${outcome.ingest.messages.new} new message(s)${outcome.backgroundPid ? `; distilling in background (pid ${outcome.backgroundPid})` : ''}`);
      } catch (error) {
        const message = StrataError.isInstance(error) ? `[${error.code}] ${error.message}` : (error as Error).message ?? String(error);
        note(event, message);
      }
    });
}
