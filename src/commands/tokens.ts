/**
 * `strata tokens create|list|revoke`: per-agent bearer tokens for `strata serve`. They live where
 * the service's data lives (the store's PostgreSQL database, else the home), so every serve
 * process on that database accepts them and a revocation applies to all at once.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { StrataError } from '../errors/index.js';
import { openTokenRegistry } from '../remote/token-registry.js';
import { callerOfToken, mintToken, tokenInfo, type TokenRegistry } from '../remote/tokens.js';
import { globals } from './context.js';
import { printJson, printTable } from './output.js';

async function withRegistry<T>(
  cmd: Command,
  fn: (registry: TokenRegistry, config: Awaited<ReturnType<typeof loadConfig>>['config']) => Promise<T>,
): Promise<T> {
  const loaded = await loadConfig({ home: globals(cmd).home });
  const registry = await openTokenRegistry({ config: loaded.config, home: loaded.home });
  try {
    return await fn(registry, loaded.config);
  } finally {
    await registry.close();
  }
}

const commaList = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

export function registerTokenCommands(program: Command): void {
  const tokens = program.command('tokens').description('per-agent bearer tokens for strata serve (stored hashed; shown once)');
  tokens
    .command('create')
    .description('make a token that acts as one agent; prints it once (clients send it as STRATA_TOKEN)')
    .option('--agent <id>', 'the agent the token acts as (required unless --owner)')
    .option('--scopes <list>', "narrow the token to these of the agent's scopes (comma-separated or repeated)", commaList)
    .option(
      '--grants <list>',
      'extra non-agent scopes the token carries: project:, user:, custom:, session: (comma-separated or repeated)',
      commaList,
    )
    .option('--label <text>', 'a note for list (who or where it is used)')
    .option('--owner', "an admin token: owner mode (every scope and every agent's conversations); give it to operators only")
    .action(async (opts: { agent?: string; scopes?: string[]; grants?: string[]; label?: string; owner?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withRegistry(cmd, async (registry, config) => {
        const { token, record } = mintToken({
          agentId: opts.agent ?? g.agent,
          scopes: opts.scopes,
          grants: opts.grants,
          label: opts.label,
          owner: opts.owner,
        });
        await registry.add(record);
        const caller = callerOfToken(record, config);
        if (g.json) return printJson({ token, ...tokenInfo(record), readScopes: caller.scopes, writeScope: caller.writeScope });
        process.stdout.write(`${token}\n`);
        process.stderr.write(
          `token ${record.id} for ${record.owner ? 'owner mode' : `agent ${record.agentId}`}: reads ${caller.scopes.join(', ')}; writes ${caller.writeScope}\n` +
            `stored hashed in ${registry.location}; this is the only time it is shown. Clients: export STRATA_TOKEN=<token>\n`,
        );
      });
    });
  tokens
    .command('list')
    .description('every token (never the secret): id, agent, scopes, label, created, revoked')
    .option('--all', 'include revoked tokens')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      await withRegistry(cmd, async (registry) => {
        const rows = (await registry.list()).filter((t) => opts.all || !t.revokedAt).map(tokenInfo);
        if (globals(cmd).json) return printJson(rows);
        if (rows.length === 0) return void process.stdout.write('no tokens\n');
        printTable(
          ['id', 'agent', 'scopes', 'grants', 'owner', 'label', 'created', 'revoked'],
          rows.map((t) => [
            t.id,
            t.agentId ?? '-',
            t.scopes?.join(',') ?? '(agent default)',
            t.grants.join(',') || '-',
            t.owner ? 'yes' : '',
            t.label ?? '',
            t.createdAt.slice(0, 19),
            t.revokedAt?.slice(0, 19) ?? '',
          ]),
        );
      });
    });
  tokens
    .command('revoke')
    .description('revoke a token by its id: every serve process refuses it from the next request')
    .argument('<id>')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      await withRegistry(cmd, async (registry) => {
        const found = await registry.revoke(id.trim(), new Date().toISOString());
        if (!found) throw new StrataError({ code: 'NOT_FOUND', message: `No token with id ${id} (strata tokens list --all shows them).` });
        if (globals(cmd).json) return printJson({ revoked: id });
        process.stdout.write(`revoked ${id}\n`);
      });
    });
}
