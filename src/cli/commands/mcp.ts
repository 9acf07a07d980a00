import type { Command } from 'commander';
import { InvalidArgumentError } from '../../errors/index.js';
import { callerOf, globals, openStrata, remoteOps } from '../../commands/context.js';
import { describeCaller, type Caller } from '../../core/caller.js';
import type { OperationsRunner } from '../../core/ops/index.js';
import { HOOK_GUARD_ENV } from '../../hosts/claude-code/background.js';
import type { Strata } from '../../strata.js';
import { TOKEN_ENV } from '../../hosts/shared/constants.js';

function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new InvalidArgumentError({
      argument: '--http',
      message: `--http expects <host>:<port>, e.g. 127.0.0.1:7778 (got ${JSON.stringify(value)}).`,
    });
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Claude Code marks the processes it starts (hooks, MCP servers) with these. */
const CLAUDE_CODE_MARKERS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT'];

/**
 * The MCP server's operations: through the home's resident Strata process when one runs, so the
 * server connects without opening LanceDB or loading the model and shares one warm engine with
 * the hooks and the CLI. It starts one (as the first Claude Code hook does) with
 * `--start-resident`, or when Claude Code started this server (its hooks use the same resident).
 * Otherwise, and with `--no-resident`, `STRATA_RESIDENT=0` or in owner mode (`--all-scopes`, which
 * the socket never grants), operations run on an engine in this process, opened on first need.
 */
async function mcpOperations(
  cmd: Command,
  options: { resident: boolean; startResident?: boolean },
): Promise<{ ops: OperationsRunner; caller: Caller; close(): Promise<void> }> {
  // Remote mode (--url / STRATA_URL / config remote.url): the tools call the service as its token's agent.
  const remote = await remoteOps(cmd);
  if (remote) return { ops: remote, caller: remote.caller, close: async () => {} };
  const g = globals(cmd);
  if (!options.resident || process.env.STRATA_RESIDENT === '0' || g.allScopes) {
    const strata = await openStrata(cmd);
    const caller = callerOf(strata, g);
    return { ops: strata.as(caller, { actor: 'mcp' }), caller, close: () => strata.close() };
  }
  const [{ loadConfig }, { residentOperations }, { residentCommand, residentStamp }, { callResident }] = await Promise.all([
    import('../../config/load.js'),
    import('../../resident/operations.js'),
    import('../../resident/stamp.js'),
    import('../../resident/client.js'),
  ]);
  const loaded = await loadConfig({ home: g.home });
  const home = loaded.home;
  const stamp = residentStamp();
  // The resident serves every agent of the home and outlives this server: it gets no identity of its
  // own, and the guard keeps anything it runs from firing Claude Code hooks again.
  const env: NodeJS.ProcessEnv = { ...process.env, [HOOK_GUARD_ENV]: '1' };
  delete env.STRATA_AGENT_ID;
  const starts = options.startResident === true || CLAUDE_CODE_MARKERS.some((m) => Boolean(process.env[m]));
  const start = starts ? { ...residentCommand({ home, stamp }), env } : undefined;
  let opened: Promise<Strata> | undefined;
  const ops = residentOperations({
    home,
    config: loaded.config,
    agentId: g.agent,
    operatorScopes: g.scope,
    actor: 'mcp',
    stamp,
    start,
    inProcess: async () => (await (opened ??= openStrata(cmd))).as(ops.caller, { actor: 'mcp' }),
    onFallback: (reason) => process.stderr.write(`strata mcp: running operations in this process (${reason})\n`),
  });
  // Warm it now: the model's first tool call should not wait for LanceDB and the embedding model.
  if (start) void callResident({ home, stamp, op: 'ping', deadline: Date.now() + 30_000, start }).catch(() => undefined);
  return {
    ops,
    caller: ops.caller,
    close: async () => {
      if (opened) await (await opened.catch(() => undefined))?.close();
    },
  };
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'run the MCP server on stdio (or streamable HTTP with --http); identity from --agent, $STRATA_AGENT_ID or scopes.defaultAgent; no agent = global only, --all-scopes = owner',
    )
    .option('--http <host:port>', `serve streamable HTTP at http://<host:port>/mcp instead of stdio (non-loopback needs $${TOKEN_ENV})`)
    .option('--no-resident', 'open the engine in this process instead of using the resident Strata process of the home')
    .option('--start-resident', 'start the resident Strata process of the home when none runs (automatic under Claude Code)')
    .action(async (opts: { http?: string; resident: boolean; startResident?: boolean }, cmd: Command) => {
      const bind = opts.http ? parseHostPort(opts.http) : undefined;
      // stdout is the JSON-RPC channel in stdio mode: route any stray console.log to stderr.
      if (!bind) console.log = console.error;
      // Loaded on demand: other commands should not pay for the MCP SDK and the HTTP server.
      const { runMcpStdio, startMcpHttp } = await import('../../hosts/mcp/transports.js');
      const { waitForShutdown } = await import('../../hosts/shared/listen.js');
      const { ops, caller, close } = await mcpOperations(cmd, opts);
      try {
        if (!bind) return await runMcpStdio({ ops });
        const server = await startMcpHttp({ ops, ...bind, token: process.env[TOKEN_ENV] || undefined });
        process.stderr.write(`strata MCP (streamable HTTP) on ${server.url}/mcp as ${describeCaller(caller)}\n`);
        await waitForShutdown();
        await server.close();
      } finally {
        await close();
      }
    });
}
