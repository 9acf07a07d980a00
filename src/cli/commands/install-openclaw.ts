import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultOpenClawConfigPath, installOpenClaw, uninstallOpenClaw } from '../../hosts/openclaw/install.js';
import { globals } from '../../commands/context.js';
import { printJson } from '../../commands/output.js';

/** The plugin folder shipped with this package (src/cli/commands or dist/cli/commands -> repo root). */
export function bundledOpenClawPluginPath(): string {
  return fileURLToPath(new URL('../../../openclaw-plugin', import.meta.url));
}

/**
 * `strata install openclaw [--apply] [--config <path>]`. Mounted under an existing `install`
 * command when one is registered (the claude-code installer), else creates it.
 */
export function registerInstallOpenClawCommand(program: Command): void {
  const install = program.commands.find((c) => c.name() === 'install') ?? program.command('install').description('wire Strata into a host');
  install
    .command('openclaw')
    .description('add Strata to OpenClaw as its memory plugin (slot, load path, entry, hook permissions); prints the result unless --apply')
    .option('--apply', 'write the config (the previous file is kept as a backup)')
    .option(
      '--config <path>',
      'OpenClaw config file (default $OPENCLAW_CONFIG_PATH, else $OPENCLAW_STATE_DIR or ~/.openclaw, /openclaw.json)',
    )
    .option('--plugin-path <dir>', 'plugin folder to load (default: the one shipped with this package)')
    .action(async (opts: { apply?: boolean; config?: string; pluginPath?: string }, cmd: Command) => {
      const g = globals(cmd);
      const result = await installOpenClaw({
        configPath: opts.config ? resolve(opts.config) : defaultOpenClawConfigPath(),
        pluginPath: opts.pluginPath ? resolve(opts.pluginPath) : bundledOpenClawPluginPath(),
        home: g.home ? resolve(g.home) : undefined,
        apply: opts.apply,
      });
      if (g.json) {
        printJson({
          configPath: result.configPath,
          action: result.action,
          applied: result.applied,
          backup: result.backup,
          previousMemoryPlugin: result.previousMemoryPlugin,
          config: result.config,
        });
        return;
      }
      const out = (line: string) => process.stdout.write(line + '\n');
      if (result.action === 'unchanged') out(`unchanged: ${result.configPath} already has Strata as its memory plugin`);
      else if (result.applied)
        out(
          `${result.action === 'create' ? 'created' : 'updated'}: ${result.configPath}${result.backup ? ` (backup: ${result.backup})` : ''}`,
        );
      else {
        out(`would ${result.action}: ${result.configPath} (run again with --apply to write it)`);
        process.stdout.write(result.content);
      }
      if (result.previousMemoryPlugin)
        out(
          `note: the memory slot moves from ${result.previousMemoryPlugin} to strata; ${result.previousMemoryPlugin} is disabled while Strata holds the slot.`,
        );
      if (result.applied) out('Restart the OpenClaw gateway to load the plugin.');
    });
}

/**
 * `strata uninstall openclaw [--dry-run] [--config <path>]`: reverses `strata install openclaw`
 * (mounted under the existing `uninstall` command, like install). Applies unless --dry-run.
 */
export function registerUninstallOpenClawCommand(program: Command): void {
  const uninstall =
    program.commands.find((c) => c.name() === 'uninstall') ??
    program.command('uninstall').description('remove what `strata install <host>` added');
  uninstall
    .command('openclaw')
    .description(
      'remove Strata from the OpenClaw config (slot, load path, entry, hook permissions), restoring what install replaced; the previous file is kept as a backup',
    )
    .option('--dry-run', 'print the resulting config; write nothing')
    .option(
      '--config <path>',
      'OpenClaw config file (default $OPENCLAW_CONFIG_PATH, else $OPENCLAW_STATE_DIR or ~/.openclaw, /openclaw.json)',
    )
    .option(
      '--plugin-path <dir>',
      'plugin folder to remove from the load paths when install left no record (default: the one shipped with this package)',
    )
    .action(async (opts: { dryRun?: boolean; config?: string; pluginPath?: string }, cmd: Command) => {
      const g = globals(cmd);
      // The parent `uninstall` also declares --dry-run and commander gives it the flag: read both.
      const dryRun = opts.dryRun === true || cmd.optsWithGlobals<{ dryRun?: boolean }>().dryRun === true;
      const result = await uninstallOpenClaw({
        configPath: opts.config ? resolve(opts.config) : defaultOpenClawConfigPath(),
        pluginPath: opts.pluginPath ? resolve(opts.pluginPath) : bundledOpenClawPluginPath(),
        apply: !dryRun,
      });
      if (g.json) {
        const { content: _content, ...rest } = result;
        printJson({ dryRun, ...rest });
        return;
      }
      const out = (line: string) => process.stdout.write(line + '\n');
      if (result.action === 'unchanged') out(`unchanged: ${result.configPath} has no Strata install to remove`);
      else if (result.applied) out(`updated: ${result.configPath}${result.backup ? ` (backup: ${result.backup})` : ''}`);
      else {
        out(`would update: ${result.configPath} (run again without --dry-run to write it)`);
        process.stdout.write(result.content);
      }
      if (result.action !== 'unchanged' && result.restoredMemoryPlugin)
        out(`note: the memory slot goes back to ${result.restoredMemoryPlugin}.`);
      if (result.applied) out('Restart the OpenClaw gateway to unload the plugin.');
    });
}
