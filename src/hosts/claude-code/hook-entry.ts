/**
 * Fast entry for Claude Code hooks: `node hook-entry.js [--home <dir>] [--agent <id>] hook <Event>
 * [--no-distill] [--verbose]`. Same behaviour as `strata hook`, without loading the whole CLI (LanceDB,
 * MCP SDK, HTTP server): SessionEnd's default budget is 1.5 s, and the guard check runs before any
 * import. `strata install claude-code` points the hooks here when a build exists.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

if (!['', '0', undefined].includes(process.env.STRATA_HOOK_GUARD)) process.exit(0);

function parseArgs(argv: string[]): { home?: string; agent?: string; event?: string; distill: boolean; verbose: boolean } {
  const out: { home?: string; agent?: string; event?: string; distill: boolean; verbose: boolean } = { distill: true, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--home') out.home = argv[++i];
    else if (arg === '--agent') out.agent = argv[++i];
    else if (arg === '--no-distill') out.distill = false;
    else if (arg === '--verbose') out.verbose = true;
    else if (arg === 'hook' && out.event === undefined) out.event = argv[++i];
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const { executeHook } = await import('./run.js');
// The background distill runs the full CLI next to this file (dist/cli/main.js, or src/cli/main.ts under tsx).
const cli = fileURLToPath(new URL(`../../cli/main${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
await executeHook({ ...args, event: args.event ?? '', launcher: { execPath: process.execPath, execArgv: process.execArgv, cli } });
process.exit(0);
