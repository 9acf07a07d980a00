import type { Command } from 'commander';
import { InvalidArgumentError } from '../errors/index.js';
import { createInterface } from 'node:readline/promises';
import type { MemoryRecord } from '../spec/memory-record.js';
import { collect, globals, withOps } from './context.js';
import { printJson, printTable, shortDate } from './output.js';
import { collectCategory, parseCategory, parsePositiveInt, parseUnit } from './parse.js';
import { printScopeHint } from './scope-hint.js';
import { bulkDelete, parseBefore } from './bulk-delete.js';
import { resolveId, resolveIds } from './id-prefix.js';

function printRecords(records: MemoryRecord[]): void {
  printTable(
    ['id', 'scope', 'category', 'imp', 'created', 'text'],
    records.map((r) => [
      r.id,
      r.scope,
      r.category,
      r.importance.toFixed(2),
      shortDate(r.createdAt),
      (r.validTo ? '[history] ' : '') + r.text,
    ]),
  );
}

const forgotten = (n: number) => `forgot ${n} memor${n === 1 ? 'y' : 'ies'}\n`;

export function registerMemoryCommands(program: Command): void {
  program
    .command('add')
    .description(
      "store a memory (exact and near duplicates are reported, not added); goes to the first --scope, else the agent's scope, else global",
    )
    .argument('<text>', 'the memory text')
    // Text starting with '-' ("-----BEGIN ...", "- item", "-5 degrees") is text, not an unknown option.
    .allowUnknownOption()
    .allowExcessArguments()
    .hook('preAction', (cmd) => assertOneText(cmd))
    .option('--category <category>', 'preference | fact | decision | entity | event | rule | lesson | other', parseCategory)
    .option('--importance <n>', 'importance 0..1', parseUnit)
    .option('--confidence <n>', 'confidence 0..1', parseUnit)
    .option('--tag <tag>', 'a tag (repeatable)', collect)
    .action(async (text: string, opts: { category?: string; importance?: number; confidence?: number; tag?: string[] }, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const result = await ops.run('remember', {
          text,
          category: opts.category,
          importance: opts.importance,
          confidence: opts.confidence,
          tags: opts.tag,
        });
        if (g.json) return printJson(result);
        if (result.action === 'duplicate') {
          process.stdout.write(
            `duplicate of ${result.id} (${result.duplicateOf?.kind}${result.duplicateOf?.similarity ? ` ${result.duplicateOf.similarity.toFixed(3)}` : ''}); nothing added\n`,
          );
        } else {
          process.stdout.write(
            `added ${result.id} to ${result.record?.scope}${result.redactions ? ` (${result.redactions} secret(s) redacted)` : ''}${result.flags.length ? ` [${result.flags.join(', ')}]` : ''}\n`,
          );
        }
      });
    });

  program
    .command('get')
    .description('show one memory with every field')
    .argument('<id>')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const record = await ops.run('get', { id: await resolveId(ops, id) });
        if (g.json) return printJson(record);
        for (const [k, v] of Object.entries(record))
          process.stdout.write(`${k.padEnd(15)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`);
      });
    });

  program
    .command('update')
    .description('change a memory in place')
    .argument('<id>')
    .option('--text <text>', 'new text')
    .option('--category <category>', 'new category', parseCategory)
    .option('--importance <n>', 'importance 0..1', parseUnit)
    .option('--confidence <n>', 'confidence 0..1', parseUnit)
    .option('--tag <tag>', 'replace tags (repeatable)', collect)
    .option('--move-to <scope>', 'move to another scope')
    .action(
      async (
        id: string,
        opts: { text?: string; category?: string; importance?: number; confidence?: number; tag?: string[]; moveTo?: string },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withOps(cmd, async (ops) => {
          const record = await ops.run('update', {
            id: await resolveId(ops, id),
            text: opts.text,
            category: opts.category,
            importance: opts.importance,
            confidence: opts.confidence,
            tags: opts.tag,
            scope: opts.moveTo,
          });
          if (g.json) return printJson(record);
          process.stdout.write(`updated ${record.id}\n`);
        });
      },
    );

  program
    .command('forget')
    .alias('delete')
    .description(
      'delete memories by id (or unique id prefix), by --query, or in bulk by --scope/--category/--before (asks; --yes to skip, --dry-run to list)',
    )
    .argument('[ids...]')
    .option('--query <query>', 'forget the best matches of a query')
    .option('--limit <n>', 'matches considered for --query', parsePositiveInt, 5)
    .option('--category <category>', 'bulk: only this category (repeatable)', collectCategory)
    .option('--before <date>', 'bulk: only memories created before this date (YYYY-MM-DD or ISO time)', parseBefore)
    .option('--dry-run', 'bulk: list what would be deleted, delete nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      async (
        ids: string[],
        opts: { query?: string; limit: number; yes?: boolean; category?: string[]; before?: string; dryRun?: boolean },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withOps(cmd, async (ops) => {
          const bulk =
            opts.category !== undefined ||
            opts.before !== undefined ||
            opts.dryRun === true ||
            (ids.length === 0 && opts.query === undefined && (g.scope ?? []).length > 0);
          if (bulk) {
            if (ids.length > 0 || opts.query !== undefined)
              throw new InvalidArgumentError({
                argument: 'ids',
                message: 'Give ids, --query, or bulk filters (--scope, --category, --before), not several.',
              });
            const out = await bulkDelete(ops, {
              filter: { scopes: g.scope, categories: opts.category, before: opts.before },
              dryRun: opts.dryRun,
              yes: opts.yes,
              describe: (r) => !g.json && printRecords(r),
            });
            if (g.json) return printJson(out);
            if (out.matched === 0) return void process.stdout.write('no matching memories\n');
            return void process.stdout.write(
              out.dryRun
                ? `[dry run] would delete ${out.matched} memor${out.matched === 1 ? 'y' : 'ies'}\n`
                : out.deleted > 0
                  ? forgotten(out.deleted)
                  : 'nothing deleted\n',
            );
          }
          if (ids.length === 0 && opts.query === undefined)
            throw new InvalidArgumentError({
              argument: 'ids',
              message: 'Give ids, --query <text>, or bulk filters (--scope, --category, --before).',
            });
          if (ids.length > 0) {
            const out = await ops.run('forget', { ids: await resolveIds(ops, ids) });
            if (g.json) return printJson({ deleted: out.deleted, ids: out.ids });
            return void process.stdout.write(forgotten(out.deleted));
          }
          const preview = await ops.run('forget', { query: opts.query, limit: opts.limit });
          if (preview.matches.length === 0)
            return g.json ? printJson({ deleted: 0, ids: [] }) : void process.stdout.write('no matching memories\n');
          let confirmed = Boolean(opts.yes);
          if (!confirmed) {
            if (!process.stdin.isTTY) {
              if (!g.json) printRecords(preview.matches);
              throw new InvalidArgumentError({
                argument: '--yes',
                message: 'Refusing to delete by query without confirmation: re-run with --yes.',
              });
            }
            printRecords(preview.matches);
            const rl = createInterface({ input: process.stdin, output: process.stderr });
            confirmed = /^y(es)?$/i.test((await rl.question(`Delete these ${preview.matches.length}? [y/N] `)).trim());
            rl.close();
          }
          if (!confirmed) return void process.stdout.write('nothing deleted\n');
          // Exactly the previewed memories: a confirmed query run again could match others.
          const out = await ops.run('forget', { ids: preview.matches.map((m) => m.id) });
          if (g.json) return printJson({ deleted: out.deleted, ids: out.ids });
          process.stdout.write(forgotten(out.deleted));
        });
      },
    );

  program
    .command('list')
    .description('list memories (newest first)')
    .option('--category <category>', 'filter by category (repeatable)', collectCategory)
    .option('--tag <tag>', 'filter by tag (repeatable)', collect)
    .option('--history', 'include superseded memories')
    .option('--limit <n>', 'page size', parsePositiveInt, 50)
    .option('--offset <n>', 'skip this many', (v) => Number.parseInt(v, 10), 0)
    .option('--oldest', 'oldest first')
    .action(
      async (
        opts: { category?: string[]; tag?: string[]; history?: boolean; limit: number; offset: number; oldest?: boolean },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        await withOps(cmd, async (ops, session) => {
          await printScopeHint(cmd, session, ops.caller);
          const page = await ops.run('list', {
            categories: opts.category,
            tags: opts.tag,
            includeHistory: opts.history,
            limit: opts.limit,
            offset: opts.offset,
            order: opts.oldest ? 'oldest' : 'newest',
          });
          if (g.json) return printJson(page);
          if (page.memories.length === 0) return void process.stdout.write('no memories\n');
          printRecords(page.memories);
        });
      },
    );
}

/**
 * `add` takes unknown options as text (so text may start with '-'); what is left to catch here: a
 * flag-like word (`--tagz`) is a mistyped option unless it follows `--`, and two words unquoted.
 */
function assertOneText(cmd: Command): void {
  let root = cmd;
  while (root.parent) root = root.parent;
  const raw = (root as unknown as { rawArgs?: unknown }).rawArgs; // the argv commander parsed, kept on the root
  const flag = Array.isArray(raw) && raw.includes('--') ? undefined : cmd.args.find((a) => /^--?[A-Za-z][\w-]*(=\S*)?$/.test(a));
  if (flag !== undefined) {
    throw new InvalidArgumentError({
      argument: 'text',
      message: `unknown option '${flag}' for add; to store text starting with '-', put -- before it: strata add -- '${flag}'`,
    });
  }
  if (cmd.args.length > 1) {
    throw new InvalidArgumentError({
      argument: 'text',
      message: `add takes one text, got ${cmd.args.length} arguments: quote the text (strata add "...")`,
    });
  }
}
