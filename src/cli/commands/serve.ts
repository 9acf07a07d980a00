import type { Command } from 'commander';
import { InvalidArgumentError as CommanderArgError } from 'commander';
import { callerOf, collect, globals, openStrata } from '../../commands/context.js';
import { describeCaller } from '../../core/caller.js';
import { printScopeHint } from '../../commands/scope-hint.js';
import { TOKEN_ENV } from '../../hosts/shared/constants.js';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new CommanderArgError('must be a port number (0-65535).');
  return n;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      `run the REST API at http://<host>:<port>/api/v1 and the web inspector at / (loopback by default; any other address needs $${TOKEN_ENV})`,
    )
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', parsePort, 7777)
    .option('--cors-origin <origin>', 'allow browser calls from this origin (repeatable; CORS is off otherwise)', collect)
    .action(async (opts: { host: string; port: number; corsOrigin?: string[] }, cmd: Command) => {
      const g = globals(cmd);
      // Loaded on demand: other commands should not pay for hono and the HTTP server.
      const { startHttpServer } = await import('../../hosts/http/server.js');
      const { waitForShutdown } = await import('../../hosts/shared/listen.js');
      const { openTokenRegistry } = await import('../../remote/token-registry.js');
      const strata = await openStrata(cmd);
      const tokens = await openTokenRegistry({ config: strata.config, home: strata.home }).catch(async (error: unknown) => {
        await strata.close();
        throw error;
      });
      try {
        const caller = callerOf(strata, g);
        const server = await startHttpServer({
          strata,
          caller,
          host: opts.host,
          port: opts.port,
          token: process.env[TOKEN_ENV] || undefined,
          tokens,
          cors: opts.corsOrigin ? { origins: opts.corsOrigin } : undefined,
        });
        const required = Boolean(process.env[TOKEN_ENV]) || (await tokens.hasActive());
        process.stderr.write(
          `strata API on ${server.url}/api/v1 as ${describeCaller(caller)}${required ? ` (bearer token required; per-agent tokens in ${tokens.location})` : ''}\n`,
        );
        process.stderr.write(`web inspector: ${server.url}/\n`);
        await printScopeHint(cmd, { countsByScope: async () => (await strata.stats()).byScope }, caller);
        await waitForShutdown();
        await server.close();
      } finally {
        await tokens.close();
        await strata.close();
      }
    });
}
