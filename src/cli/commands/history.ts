import type { Command } from 'commander';
import type { HistoryEntry } from '../../core/history/index.js';
import { globals, withStrata } from '../context.js';
import { printJson, printTable } from '../output.js';

/** `strata history <id>` and `strata revert <id>` over the history log (`<home>/history/`). */
function describe(entry: HistoryEntry): string {
  const related = (entry.related ?? []).map((r) => `${r.id}${r.next?.validTo ? ' (now history)' : ''}`).join(', ');
  const text = entry.next?.text ?? (entry.previous ? `(removed) ${entry.previous.text}` : '');
  return [entry.reason, text && `-> ${text}`, related && `[also ${related}]`].filter(Boolean).join(' ');
}

export function registerHistoryCommands(program: Command): void {
  program
    .command('history')
    .description('show every change to a memory: who, when, why, and the previous text')
    .argument('<id>')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const entries = await strata.history({ id });
        // Which memory is current now: this one, or the one that replaced it.
        const [record] = await strata.get({ ids: [id.toUpperCase()] }).catch(() => []);
        const state = record
          ? record.validTo === null
            ? { current: true, validFrom: record.validFrom }
            : { current: false, validFrom: record.validFrom, validTo: record.validTo, supersededBy: record.supersededBy }
          : undefined;
        if (g.json) return printJson({ id: id.toUpperCase(), ...(state ? { state } : {}), entries });
        if (state) {
          process.stdout.write(state.current
            ? `${id.toUpperCase()}: current (valid from ${state.validFrom.slice(0, 10)})\n`
            : `${id.toUpperCase()}: not current (valid ${state.validFrom.slice(0, 10)} to ${state.validTo!.slice(0, 10)}${state.supersededBy ? `; current: ${state.supersededBy}` : ''})\n`);
        }
        if (entries.length === 0) return void process.stdout.write(`no history for ${id}\n`);
        printTable(
          ['at', 'actor', 'action', 'memory', 'change'],
          entries.map((e) => [e.at.slice(0, 19).replace('T', ' '), e.actor, e.action, e.id, describe(e)]),
        );
      });
    });

  program
    .command('revert')
    .description('undo the last change to a memory (restores related memories of a supersede or merge)')
    .argument('<id>')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const result = await strata.revert({ id, actor: 'cli' });
        if (g.json) return printJson(result);
        const parts = [
          result.restored.length > 0 ? `restored ${result.restored.join(', ')}` : '',
          result.deleted.length > 0 ? `removed ${result.deleted.join(', ')}` : '',
        ].filter(Boolean);
        process.stdout.write(`reverted ${result.reverted.action} of ${result.reverted.at}: ${parts.join('; ') || 'nothing to change'}\n`);
      });
    });
}
