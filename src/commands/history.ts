import type { Command } from 'commander';
import type { HistoryEntry } from '../core/history/index.js';
import { globals, withOps } from './context.js';
import { printJson, printTable } from './output.js';
import { confirmOrRefuse } from './confirm.js';
import { resolveId } from './id-prefix.js';

/** `strata history <id>` and `strata revert <id>` over the history log (`<home>/history/`), within the caller's scopes. */
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
    .action(async (given: string, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const id = await resolveId(ops, given);
        const out = await ops.run('history', { id });
        // Which memory is current now: this one, or the one that replaced it (when still readable).
        const record = await ops.run('get', { id }).catch(() => undefined);
        const state = record
          ? record.validTo === null
            ? { current: true, validFrom: record.validFrom }
            : { current: false, validFrom: record.validFrom, validTo: record.validTo, supersededBy: record.supersededBy }
          : undefined;
        if (g.json) return printJson({ ...out, ...(state ? { state } : {}) });
        if (state) {
          const key = out.id;
          process.stdout.write(
            state.current
              ? `${key}: current (valid from ${state.validFrom.slice(0, 10)})\n`
              : `${key}: not current (valid ${state.validFrom.slice(0, 10)} to ${state.validTo!.slice(0, 10)}${state.supersededBy ? `; current: ${state.supersededBy}` : ''})\n`,
          );
        }
        printTable(
          ['at', 'actor', 'action', 'memory', 'change'],
          out.entries.map((e) => [e.at.slice(0, 19).replace('T', ' '), e.actor, e.action, e.id, describe(e)]),
        );
      });
    });

  program
    .command('revert')
    .description('undo the last change to a memory (restores related memories of a supersede or merge)')
    .argument('<id>')
    .option('-y, --yes', 'do not ask before a revert that deletes the memory (its first version)')
    .action(async (given: string, opts: { yes?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const id = await resolveId(ops, given);
        // Undoing a plain creation deletes the memory and restores nothing: the same consent as forget.
        // (A supersede or merge restores the memories it replaced, so it is undone without asking.)
        const last = (await ops.run('history', { id })).entries.at(-1);
        if (last && !last.previous && !(last.related ?? []).some((r) => r.previous)) {
          const ok = await confirmOrRefuse({
            yes: opts.yes,
            question: `${id} has no earlier version: reverting its ${last.action} deletes it. Delete it?`,
            refusal: `Refusing to revert ${id}: it has no earlier version, so reverting deletes it.`,
          });
          if (!ok)
            return g.json ? printJson({ reverted: null, deleted: [], restored: [] }) : void process.stdout.write('nothing reverted\n');
        }
        const result = await ops.run('revert', { id });
        if (g.json) return printJson(result);
        const parts = [
          result.restored.length > 0 ? `restored ${result.restored.join(', ')}` : '',
          result.deleted.length > 0 ? `removed ${result.deleted.join(', ')}` : '',
        ].filter(Boolean);
        process.stdout.write(`reverted ${result.reverted.action} of ${result.reverted.at}: ${parts.join('; ') || 'nothing to change'}\n`);
      });
    });

  program
    .command('provenance')
    .description('where a memory came from: its source and the conversation messages it was distilled from')
    .argument('<id>')
    .action(async (given: string, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const out = await ops.run('provenance', { id: await resolveId(ops, given) });
        if (g.json) return printJson(out);
        const s = out.source;
        process.stdout.write(
          `source: ${s.kind}${s.agentId ? `, agent ${s.agentId}` : ''}${s.sessionKey ? `, session ${s.sessionKey}` : ''}\n`,
        );
        if (out.withheld) process.stdout.write(`${out.withheld}\n`);
        if (out.messages.length > 0)
          printTable(
            ['when', 'role', 'id', 'text'],
            out.messages.map((m) => [new Date(m.timestamp).toISOString().slice(0, 16), m.role, m.id, m.content]),
          );
        if (out.missing.length > 0) process.stdout.write(`not in the conversation log: ${out.missing.join(', ')}\n`);
      });
    });
}
