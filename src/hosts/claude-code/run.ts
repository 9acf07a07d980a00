/**
 * The process side of a hook call, shared by `strata hook <event>` and the fast hook entry: read
 * stdin, run, print protocol JSON only. Any failure is one stderr line and exit code 0, because a
 * hook must never block the user's session.
 */
import { StrataError } from '../../errors/index.js';
import { HOOK_GUARD_ENV, hookAgentId, isGuarded, runClaudeCodeHook, type CliLauncher } from './hook.js';
import { isHookEvent, parseHookPayload } from './payload.js';
import { HOOK_EVENTS } from './settings.js';

export interface ExecuteHookOptions {
  event: string;
  home?: string;
  agent?: string;
  /** Start the detached distill after capture (default true). */
  distill?: boolean;
  verbose?: boolean;
  /** How to start the full CLI for the background `distill`. */
  launcher?: CliLauncher;
  env?: NodeJS.ProcessEnv;
  readInput?: () => Promise<string>;
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function note(event: string, message: string): void {
  process.stderr.write(`strata hook ${event}: ${message.replace(/\s+/g, ' ').trim()}\n`);
}

export async function executeHook(options: ExecuteHookOptions): Promise<void> {
  const env = options.env ?? process.env;
  const { event } = options;
  // Checked before anything else: a hook fired by Strata's own child processes must do nothing.
  if (isGuarded(env)) return;
  try {
    if (!isHookEvent(event)) return note(event, `unknown event; expected one of ${HOOK_EVENTS.join(', ')}.`);
    const payload = parseHookPayload(await (options.readInput ?? readStdin)());
    const outcome = await runClaudeCodeHook({
      event,
      payload,
      agentId: hookAgentId({ agent: options.agent, env }),
      home: options.home,
      env: { ...env, [HOOK_GUARD_ENV]: '1' },
      launcher: options.distill === false ? undefined : options.launcher,
    });
    if (outcome.stdout) process.stdout.write(outcome.stdout + '\n');
    for (const e of outcome.ingest?.errors ?? []) note(event, `${e.path}: ${e.message}`);
    if (options.verbose && outcome.ingest) {
      note(event, `captured ${outcome.ingest.messages.new} new message(s)${outcome.backgroundPid ? `; distilling in background (pid ${outcome.backgroundPid})` : ''}`);
    }
  } catch (error) {
    note(event, StrataError.isInstance(error) ? `[${error.code}] ${error.message}` : ((error as Error).message ?? String(error)));
  }
}
