import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '../../errors/index.js';
import { installClaudeCode, uninstallClaudeCode, type FileChange, type InstallScope, type Launcher } from '../../hosts/claude-code/install.js';
import { globals } from '../../commands/context.js';
import { printJson } from '../../commands/output.js';

interface ScopeFlags {
  project?: boolean;
  user?: boolean;
  dir?: string;
  dryRun?: boolean;
}

const HOSTS = ['claude-code'];

function scopeOf(flags: ScopeFlags): InstallScope {
  if (flags.project && flags.user) throw new InvalidArgumentError({ argument: '--user', message: 'Pass either --project or --user, not both.' });
  return flags.user ? 'user' : 'project';
}

function assertHost(host: string): void {
  if (!HOSTS.includes(host)) throw new InvalidArgumentError({ argument: 'host', message: `Unknown host ${JSON.stringify(host)}: supported: ${HOSTS.join(', ')}.` });
}

/**
 * Absolute node + absolute script paths: hooks run in a non-interactive shell where a version
 * manager's node may not be on PATH, and `npx` resolution costs 0.5-2 s (sometimes network) of
 * SessionEnd's 1.5 s budget. Hooks use the fast entry (dist/hosts/claude-code/hook-entry.js, which
 * skips loading LanceDB for capture events) when the package is built, else bin/strata.js. Moving
 * the package or Node means running install again (it replaces its own entries).
 */
function launchers(cmd: Command): { launcher: Launcher; hookLauncher: Launcher } {
  const g = globals(cmd);
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const identity: string[] = [];
  if (g.home) identity.push('--home', resolve(g.home));
  if (g.agent) identity.push('--agent', g.agent);
  const launcher = { command: process.execPath, args: [join(root, 'bin', 'strata.js'), ...identity] };
  const entry = join(root, 'dist', 'hosts', 'claude-code', 'hook-entry.js');
  return { launcher, hookLauncher: existsSync(entry) ? { command: process.execPath, args: [entry, ...identity] } : launcher };
}

function report(changes: FileChange[], dryRun: boolean, json: boolean): void {
  if (json) return printJson({ dryRun, changes });
  for (const c of changes) {
    const verb = c.action === 'unchanged' ? 'unchanged' : `${dryRun ? 'would ' : ''}${c.action}`;
    process.stdout.write(`${verb}: ${c.path}${c.backup && !dryRun ? ` (backup: ${c.backup})` : ''}\n`);
    if (dryRun && c.content !== undefined && c.action !== 'unchanged') process.stdout.write(c.content);
  }
}

export function registerInstallCommands(program: Command): void {
  const scopeOptions = (c: Command) =>
    c
      .option('--project', 'this project: .claude/settings.json and .mcp.json (default)')
      .option('--user', 'every project: ~/.claude/settings.json and ~/.claude.json ($CLAUDE_CONFIG_DIR honoured)')
      .option('--dir <path>', 'project root for --project (default: the current directory)')
      .option('--dry-run', 'show what would change; write nothing');

  scopeOptions(
    program
      .command('install')
      .description('wire Strata into a host: claude-code (hooks in settings.json + MCP server); idempotent, backs up every file it changes')
      .argument('<host>', HOSTS.join(' | ')),
  ).action(async (host: string, flags: ScopeFlags, cmd: Command) => {
    assertHost(host);
    const changes = await installClaudeCode({
      scope: scopeOf(flags), projectDir: resolve(flags.dir ?? process.cwd()), ...launchers(cmd), dryRun: flags.dryRun,
    });
    report(changes, flags.dryRun ?? false, globals(cmd).json ?? false);
  });

  scopeOptions(
    program
      .command('uninstall')
      .description("remove exactly what `strata install <host>` added (others' hooks and servers stay)")
      .argument('<host>', HOSTS.join(' | ')),
  ).action(async (host: string, flags: ScopeFlags, cmd: Command) => {
    assertHost(host);
    const changes = await uninstallClaudeCode({ scope: scopeOf(flags), projectDir: resolve(flags.dir ?? process.cwd()), dryRun: flags.dryRun });
    report(changes, flags.dryRun ?? false, globals(cmd).json ?? false);
  });
}
