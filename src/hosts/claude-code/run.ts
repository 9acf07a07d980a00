/**
 * `strata hook <event>` (the full CLI) runs the same hook client as the fast entry (hook-entry.ts).
 */
import { readStdin, runHook, type HookArgs } from './hook-client.js';

export async function executeHook(args: HookArgs & { env?: NodeJS.ProcessEnv; readInput?: () => Promise<string> }): Promise<void> {
  await runHook(args, {
    env: args.env ?? process.env,
    readInput: args.readInput ?? readStdin,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
