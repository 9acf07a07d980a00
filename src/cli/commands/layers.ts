/**
 * L2/L3 commands: `strata scenes [list|show <file>]`, `strata persona [show]`, `strata organize`
 * (one organiser run) and `strata context` (the session-start block a host injects).
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from '../../errors/index.js';
import type { OrganizeReport } from '../../core/layers/index.js';
import { callerOf, globals, withOps, withStrata } from '../../commands/context.js';
import { printJson, printTable, shortDate } from '../../commands/output.js';
import { parsePositiveInt } from '../../commands/parse.js';

function printReport(report: OrganizeReport): void {
  if (report.skipped) process.stdout.write(`${report.agentId}: nothing to organise (${report.skipped})\n`);
  else {
    process.stdout.write(
      `${report.agentId}: ${report.memoriesProcessed} memories organised in ${report.turns} turns (${report.toolCalls} tool calls, ${report.refusedToolCalls} refused)\n` +
        `scenes: ${report.sceneCount} (created ${report.created.length}, updated ${report.updated.length}, deleted ${report.deleted.length})\n`,
    );
    for (const [label, files] of [
      ['created', report.created],
      ['updated', report.updated],
      ['deleted', report.deleted],
    ] as const) {
      if (files.length) process.stdout.write(`  ${label}: ${files.join(', ')}\n`);
    }
  }
  if (report.persona) {
    const p = report.persona;
    process.stdout.write(`persona: ${p.written ? 'rewritten' : `not written (${p.error ?? p.reason ?? 'unknown'})`}\n`);
  }
}

export function registerLayerCommands(program: Command): void {
  program
    .command('scenes')
    .description("list an agent's L2 scene files, or show one (the caller's agent, or --agent)")
    .argument('[action]', 'list | show', 'list')
    .argument('[file]', 'scene file for show')
    .action(async (action: string, file: string | undefined, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      if (action !== 'list' && action !== 'show')
        throw new InvalidArgumentError({
          argument: 'action',
          message: `Unknown action ${JSON.stringify(action)}: use list or show <file>.`,
        });
      if (action === 'show' && !file)
        throw new InvalidArgumentError({ argument: 'file', message: 'Usage: strata scenes show <file> (see strata scenes list).' });
      await withOps(cmd, async (ops) => {
        if (action === 'show') return void process.stdout.write((await ops.run('scene', { name: file })).text);
        const { agent, scenes } = await ops.run('scenes', {});
        if (g.json) return printJson({ agentId: agent, scenes });
        if (scenes.length === 0) process.stdout.write(`no scenes for agent ${agent} yet (run strata organize --agent ${agent})\n`);
        else
          printTable(
            ['file', 'heat', 'updated', 'summary'],
            scenes.map((s) => [`${s.name}.md`, s.heat, shortDate(s.updated), s.summary]),
          );
      });
    });

  program
    .command('persona')
    .description("show an agent's L3 persona (the caller's agent, or --agent)")
    .argument('[action]', 'show', 'show')
    .action(async (action: string, _opts: unknown, cmd: Command) => {
      if (action !== 'show')
        throw new InvalidArgumentError({ argument: 'action', message: `Unknown action ${JSON.stringify(action)}: use show.` });
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const persona = await ops.run('persona', {}).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'NOT_FOUND') return undefined;
          throw error;
        });
        const agent = ops.caller.agentId;
        if (g.json) return printJson({ agentId: agent, persona: persona?.text ?? null });
        process.stdout.write(persona?.text ?? `no persona for agent ${agent} yet (written by strata organize)\n`);
      });
    });

  program
    .command('organize')
    .description("one organiser run: fold an agent's new memories into scenes (needs a tool-capable LLM)")
    .option('--max-scenes <n>', 'scene limit (default: layers.scenes.limit)', parsePositiveInt)
    .option('--max-memories <n>', 'memories per run (default: layers.scenes.maxMemoriesPerRun)', parsePositiveInt)
    .action(async (opts: { maxScenes?: number; maxMemories?: number }, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const { agentId } = callerOf(strata, g);
        if (!agentId)
          throw new InvalidArgumentError({
            argument: '--agent',
            message: 'No agent: pass --agent <id> (or set STRATA_AGENT_ID or scopes.defaultAgent in config.json).',
          });
        // Limits come from config `layers` (scenes, persona); the flags override them for this run.
        const report = await strata.organize({ agentId, maxScenes: opts.maxScenes, maxMemoriesPerRun: opts.maxMemories });
        if (g.json) printJson(report);
        else printReport(report);
      });
    });

  program
    .command('context')
    .description('print the session-start context for an agent: persona, scene navigation, session summaries, relevant memories')
    .option('--query <q>', 'recall memories relevant to this text (default: important + recent)')
    .option('--session <key>', "include this session's hierarchical summaries (strata summarize)")
    .option('--budget <tokens>', 'token budget', parsePositiveInt, 1500)
    .action(async (opts: { query?: string; session?: string; budget: number }, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops) => {
        const result = await ops.run('context', { query: opts.query, sessionKey: opts.session, maxTokens: opts.budget });
        if (g.json) printJson(result);
        else if (result.text) process.stdout.write(result.text + '\n');
      });
    });
}
