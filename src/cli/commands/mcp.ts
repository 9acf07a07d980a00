import type { Command } from 'commander';
import { InvalidArgumentError } from '../../errors/index.js';
import { globals, openStrata } from '../context.js';
import { resolveCaller } from '../../hosts/mcp/caller.js';
import { TOKEN_ENV } from '../../hosts/http/constants.js';

function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new InvalidArgumentError({ argument: '--http', message: `--http expects <host>:<port>, e.g. 127.0.0.1:7778 (got ${JSON.stringify(value)}).` });
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server on stdio (or streamable HTTP with --http); identity from --agent, $STRATA_AGENT_ID or scopes.defaultAgent')
    .option('--http <host:port>', `serve streamable HTTP at http://<host:port>/mcp instead of stdio (non-loopback needs $${TOKEN_ENV})`)
    .action(async (opts: { http?: string }, cmd: Command) => {
      const g = globals(cmd);
      const bind = opts.http ? parseHostPort(opts.http) : undefined;
      // stdout is the JSON-RPC channel in stdio mode: route any stray console.log to stderr.
      if (!bind) console.log = console.error;
      // Loaded on demand: other commands should not pay for the MCP SDK and the HTTP server.
      const { runMcpStdio, startMcpHttp } = await import('../../hosts/mcp/transports.js');
      const { waitForShutdown } = await import('../../hosts/http/listen.js');
      const strata = await openStrata(cmd);
      try {
        const caller = resolveCaller({ config: strata.config, agentId: g.agent, extraScopes: g.scope });
        const base = { engine: strata, home: strata.home, caller, conversationSearch: (o: { query: string; limit: number; agentId?: string; sessionKey?: string }) => strata.searchConversations(o) };
        if (!bind) return await runMcpStdio(base);
        const server = await startMcpHttp({ ...base, ...bind, token: process.env[TOKEN_ENV] || undefined });
        process.stderr.write(`strata MCP (streamable HTTP) on ${server.url}/mcp as ${caller.agentId ?? '(no agent)'} [${caller.scopes.join(', ')}]\n`);
        await waitForShutdown();
        await server.close();
      } finally {
        await strata.close();
      }
    });
}
