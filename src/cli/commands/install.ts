import type { Command } from 'commander';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveHome } from '../../config/load.js';
import { assertAgentId } from '../../core/caller.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { installClaudeCode, uninstallClaudeCode, type FileChange, type InstallScope } from '../../hosts/claude-code/install.js';
import { planLaunch } from '../../hosts/claude-code/launcher.js';
import { globals } from '../../commands/context.js';
import { printJson } from '../../commands/output.js';

interface ScopeFlags {
  project?: boolean;
  user?: boolean;
  dir?: string;
  dryRun?: boolean;
  allowReadTools?: boolean;
}

const HOSTS = ['claude-code'];
const DEFAULT_AGENT = 'claude-code';

function scopeOf(flags: ScopeFlags): InstallScope {
  if (flags.project && flags.user)
    throw new InvalidArgumentError({ argument: '--user', message: 'Pass either --project or --user, not both.' });
  return flags.user ? 'user' : 'project';
}

function assertHost(host: string): void {
  if (!HOSTS.includes(host))
    throw new InvalidArgumentError({ argument: 'host', message: `Unknown host ${JSON.stringify(host)}: supported: ${HOSTS.join(', ')}.` });
}

/** This package's root (dist/cli/commands or src/cli/commands -> root) and version. */
function ownPackage(): { root: string; version: string } {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string };
  return { root, version };
}

/** A project whose git does not ignore settings.local.json would commit this machine's hook paths. */
function gitIgnoreNote(projectDir: string): string | undefined {
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: projectDir, stdio: 'ignore' });
  } catch {
    return undefined;
  }
  try {
    execFileSync('git', ['check-ignore', '-q', '.claude/settings.local.json'], { cwd: projectDir, stdio: 'ignore' });
    return undefined;
  } catch {
    return "git does not ignore .claude/settings.local.json (it holds this machine's hook commands): add it to .gitignore.";
  }
}

function report(changes: FileChange[], notes: string[], dryRun: boolean, json: boolean): void {
  if (json) return printJson({ dryRun, changes, notes });
  for (const c of changes) {
    const verb = c.action === 'unchanged' ? 'unchanged' : `${dryRun ? 'would ' : ''}${c.action}`;
    process.stdout.write(`${verb}: ${c.path}${c.backup && !dryRun ? ` (backup: ${c.backup})` : ''}\n`);
    if (dryRun && c.content !== undefined && c.action !== 'unchanged') process.stdout.write(c.content);
  }
  for (const note of notes) process.stdout.write(`note: ${note}\n`);
}

export function registerInstallCommands(program: Command): void {
  const scopeOptions = (c: Command) =>
    c
      .option('--project', 'this project (default): hooks in .claude/settings.local.json, a portable MCP entry in .mcp.json')
      .option('--user', 'every project: ~/.claude/settings.json and ~/.claude.json ($CLAUDE_CONFIG_DIR honoured)')
      .option('--dir <path>', 'project root for --project (default: the current directory)')
      .option('--dry-run', 'show what would change; write nothing');

  scopeOptions(
    program
      .command('install')
      .description(
        'wire Strata into a host: claude-code (hooks + MCP server, one agent and home for both); idempotent, keeps file modes, backs up under the Strata home',
      )
      .argument('<host>', HOSTS.join(' | ')),
  )
    .option('--allow-read-tools', "let Claude Code call Strata's read-only MCP tools (recall, list, search...) without asking")
    .action(async (host: string, flags: ScopeFlags, cmd: Command) => {
      assertHost(host);
      const g = globals(cmd);
      const scope = scopeOf(flags);
      const projectDir = resolve(flags.dir ?? process.cwd());
      // Pinned into every hook and the MCP entry, so hooks and the model's tools act as one agent.
      const identity = {
        home: resolveHome({ home: g.home }),
        agentId: assertAgentId(g.agent?.trim() || process.env.STRATA_AGENT_ID?.trim() || DEFAULT_AGENT),
      };
      const pkg = ownPackage();
      const plan = planLaunch({
        packageRoot: pkg.root,
        version: pkg.version,
        scope,
        projectDir,
        env: process.env,
        execPath: process.execPath,
      });
      const changes = await installClaudeCode({
        scope,
        projectDir,
        identity,
        plan,
        allowReadTools: flags.allowReadTools,
        dryRun: flags.dryRun,
      });
      const notes = [`hooks and the MCP server act as agent ${identity.agentId} with home ${identity.home}`, ...plan.notes];
      if (scope === 'project') {
        const ignore = gitIgnoreNote(projectDir);
        if (ignore) notes.push(ignore);
      }
      report(changes, notes, flags.dryRun ?? false, g.json ?? false);
    });

  scopeOptions(
    program
      .command('uninstall')
      .description(
        "remove exactly what `strata install <host>` added (others' hooks and servers stay; an untouched file is restored byte for byte)",
      )
      .argument('<host>', HOSTS.join(' | ')),
  ).action(async (host: string, flags: ScopeFlags, cmd: Command) => {
    assertHost(host);
    const g = globals(cmd);
    const changes = await uninstallClaudeCode({
      scope: scopeOf(flags),
      projectDir: resolve(flags.dir ?? process.cwd()),
      home: resolveHome({ home: g.home }),
      dryRun: flags.dryRun,
    });
    report(changes, [], flags.dryRun ?? false, g.json ?? false);
  });
}
