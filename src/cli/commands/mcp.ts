import type { Command } from 'commander';
import { InvalidArgumentError } from '../../errors/index.js';
import { callerOf, globals, openStrata, remoteOps } from '../../commands/context.js';
import { describeCaller } from '../../core/caller.js';
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

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(
      'run the MCP server on stdio (or streamable HTTP with --http); identity from --agent, $STRATA_AGENT_ID or scopes.defaultAgent; no agent = global only, --all-scopes = owner',
    )
    .option('--http <host:port>', `serve streamable HTTP at http://<host:port>/mcp instead of stdio (non-loopback needs $${TOKEN_ENV})`)
    .action(async (opts: { http?: string }, cmd: Command) => {
      const g = globals(cmd);
      const bind = opts.http ? parseHostPort(opts.http) : undefined;
      // stdout is the JSON-RPC channel in stdio mode: route any stray console.log to stderr.
      if (!bind) console.log = console.error;
      // Loaded on demand: other commands should not pay for the MCP SDK and the HTTP server.
      const { runMcpStdio, startMcpHttp } = await import('../../hosts/mcp/transports.js');
      const { waitForShutdown } = await import('../../hosts/shared/listen.js');
      // Remote mode (--url / STRATA_URL / config remote.url): the tools call the service as its token's agent.
      const remote = await remoteOps(cmd);
      const strata = remote ? null : await openStrata(cmd);
      try {
        const caller = remote ? remote.caller : callerOf(strata!, g);
        const base = { ops: remote ?? strata!.as(caller, { actor: 'mcp' }) };
        if (!bind) return await runMcpStdio(base);
        const server = await startMcpHttp({ ...base, ...bind, token: process.env[TOKEN_ENV] || undefined });
        process.stderr.write(`strata MCP (streamable HTTP) on ${server.url}/mcp as ${describeCaller(caller)}\n`);
        await waitForShutdown();
        await server.close();
      } finally {
        await strata?.close();
      }
    });
}
