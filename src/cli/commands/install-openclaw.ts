import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultOpenClawConfigPath, installOpenClaw } from '../../hosts/openclaw/install.js';
import { globals } from '../context.js';
import { printJson } from '../output.js';

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
    .option('--config <path>', 'OpenClaw config file (default $OPENCLAW_CONFIG_PATH, else $OPENCLAW_STATE_DIR or ~/.openclaw, /openclaw.json)')
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
        printJson({ configPath: result.configPath, action: result.action, applied: result.applied, backup: result.backup, previousMemoryPlugin: result.previousMemoryPlugin, config: result.config });
        return;
      }
      const out = (line: string) => process.stdout.write(line + '\n');
      if (result.action === 'unchanged') out(`unchanged: ${result.configPath} already has Strata as its memory plugin`);
      else if (result.applied) out(`${result.action === 'create' ? 'created' : 'updated'}: ${result.configPath}${result.backup ? ` (backup: ${result.backup})` : ''}`);
      else {
        out(`would ${result.action}: ${result.configPath} (run again with --apply to write it)`);
        process.stdout.write(result.content);
      }
      if (result.previousMemoryPlugin) out(`note: the memory slot moves from ${result.previousMemoryPlugin} to strata; ${result.previousMemoryPlugin} is disabled while Strata holds the slot.`);
      if (result.applied) out('Restart the OpenClaw gateway to load the plugin.');
    });
}
