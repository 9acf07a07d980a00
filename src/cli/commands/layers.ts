/**
 * L2/L3 commands: `strata scenes [list|show <file>]`, `strata persona [show]`, `strata organize`
 * (one organiser run) and `strata context` (the session-start block a host injects).
 */
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, StrataError } from '../../errors/index.js';
import { loadConfig } from '../../config/load.js';
import { agentScopes } from '../../core/scope.js';
import { buildContext, layerPaths, readPersona, readSceneIndex, type OrganizeReport } from '../../core/layers/index.js';
import { globals, withStrata, type GlobalOptions } from '../context.js';
import { printJson, printTable, shortDate } from '../output.js';
import { parsePositiveInt } from '../parse.js';

async function agentAndHome(g: GlobalOptions): Promise<{ agentId: string; home: string; grants: string[] }> {
  const loaded = await loadConfig({ home: g.home });
  const agentId = g.agent ?? loaded.config.scopes.defaultAgent;
  if (!agentId) throw new InvalidArgumentError({ argument: '--agent', message: 'No agent: pass --agent <id> (or set scopes.defaultAgent in config.json).' });
  return { agentId, home: loaded.home, grants: loaded.config.scopes.agentGrants[agentId] ?? [] };
}

function printReport(report: OrganizeReport): void {
  if (report.skipped) process.stdout.write(`${report.agentId}: nothing to organise (${report.skipped})\n`);
  else {
    process.stdout.write(
      `${report.agentId}: ${report.memoriesProcessed} memories organised in ${report.turns} turns (${report.toolCalls} tool calls, ${report.refusedToolCalls} refused)\n` +
        `scenes: ${report.sceneCount} (created ${report.created.length}, updated ${report.updated.length}, deleted ${report.deleted.length})\n`,
    );
    for (const [label, files] of [['created', report.created], ['updated', report.updated], ['deleted', report.deleted]] as const) {
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
    .description("list an agent's L2 scene files, or show one")
    .argument('[action]', 'list | show', 'list')
    .argument('[file]', 'scene file for show')
    .action(async (action: string, file: string | undefined, _opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { agentId, home } = await agentAndHome(g);
      const paths = layerPaths({ home, agentId });
      if (action === 'show') {
        if (!file) throw new InvalidArgumentError({ argument: 'file', message: 'Usage: strata scenes show <file> (see strata scenes list).' });
        const name = file.endsWith('.md') ? file : `${file}.md`;
        const scenes = await readSceneIndex(paths);
        if (!scenes.some((s) => s.filename === name)) throw new StrataError({ code: 'NOT_FOUND', message: `No scene ${name} for agent ${agentId}; see strata scenes list --agent ${agentId}.` });
        process.stdout.write(await readFile(join(paths.scenesDir, name), 'utf8'));
        return;
      }
      if (action !== 'list') throw new InvalidArgumentError({ argument: 'action', message: `Unknown action ${JSON.stringify(action)}: use list or show <file>.` });
      const scenes = await readSceneIndex(paths);
      if (g.json) return printJson({ agentId, scenes });
      if (scenes.length === 0) process.stdout.write(`no scenes for agent ${agentId} yet (run strata organize --agent ${agentId})\n`);
      else printTable(['file', 'heat', 'updated', 'summary'], scenes.map((s) => [s.filename, s.heat, shortDate(s.updated), s.summary]));
    });

  program
    .command('persona')
    .description("show an agent's L3 persona")
    .argument('[action]', 'show', 'show')
    .action(async (action: string, _opts: unknown, cmd: Command) => {
      if (action !== 'show') throw new InvalidArgumentError({ argument: 'action', message: `Unknown action ${JSON.stringify(action)}: use show.` });
      const g = globals(cmd);
      const { agentId, home } = await agentAndHome(g);
      const text = await readPersona(layerPaths({ home, agentId }));
      if (g.json) return printJson({ agentId, persona: text ?? null });
      process.stdout.write(text ?? `no persona for agent ${agentId} yet (written by strata organize)\n`);
    });

  program
    .command('organize')
    .description("one organiser run: fold an agent's new memories into scenes (needs a tool-capable LLM)")
    .option('--max-scenes <n>', 'scene limit (default: layers.scenes.limit)', parsePositiveInt)
    .option('--max-memories <n>', 'memories per run (default: layers.scenes.maxMemoriesPerRun)', parsePositiveInt)
    .action(async (opts: { maxScenes?: number; maxMemories?: number }, cmd: Command) => {
      const g = globals(cmd);
      const { agentId } = await agentAndHome(g);
      await withStrata(cmd, async (strata) => {
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
      const { agentId, grants } = await agentAndHome(g);
      await withStrata(cmd, async (strata) => {
        const result = await buildContext({ strata, agentId, query: opts.query, sessionKey: opts.session, budgetTokens: opts.budget, scopes: agentScopes(agentId, grants) });
        if (g.json) printJson(result);
        else if (result.text) process.stdout.write(result.text + '\n');
      });
    });
}
