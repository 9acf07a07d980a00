/**
 * Entry of an installed Claude Code hook: `node hook-entry.js [--home <dir>] [--agent <id>] hook
 * <Event> [--no-distill] [--no-resident] [--verbose]` (`strata hook` and `strata-memory hook` land
 * here too, see bin/strata.js). Imports only the small hook client; the engine lives in the
 * resident process (or loads in-process when none can run).
 */
if (!['', '0', undefined].includes(process.env.STRATA_HOOK_GUARD)) process.exit(0);

const { parseHookArgs, readStdin, runHook } = await import('./hook-client.js');
await runHook(parseHookArgs(process.argv.slice(2)), {
  env: process.env,
  readInput: readStdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
// Flush stdout before leaving: the host reads the protocol JSON from it.
process.stdout.write('', () => process.exit(0));
