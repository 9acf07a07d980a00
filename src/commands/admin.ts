import type { Command } from 'commander';
import { globals, withOps, withStrata } from './context.js';
import { describeCaller } from '../core/caller.js';
import { printJson, printTable } from './output.js';
import { loadConfig, resolveHome, writeDefaultConfig } from '../config/load.js';
import { describeWorkerSettings } from '../config/diagnostics.js';
import { createEmbedderFromConfig, createRerankerFromConfig, createStoreFromConfig } from '../wiring/factories.js';
import { StrataError } from '../errors/index.js';
import { residentHealth } from '../resident/health.js';
import { llmProviderOf } from '../config/schema.js';
import { checkLlm, checkOrphans } from './doctor-checks.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function runChecks(home: string | undefined, options: { repair?: boolean } = {}): Promise<Check[]> {
  const checks: Check[] = [];
  const check = async (name: string, fn: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await fn() });
      return true;
    } catch (error) {
      checks.push({
        name,
        ok: false,
        detail: StrataError.isInstance(error) ? `${error.code}: ${error.message}` : (error as Error).message,
      });
      return false;
    }
  };
  let loaded: Awaited<ReturnType<typeof loadConfig>> | undefined;
  await check('config', async () => {
    loaded = await loadConfig({ home });
    return `${loaded.configPath}${loaded.fromFile ? '' : ' (not present: defaults)'}`;
  });
  if (!loaded) return checks;
  const cfg = loaded;
  const embedder = await createEmbedderFromConfig({ config: cfg.config, home: cfg.home });
  await check('store', async () => {
    const store = await createStoreFromConfig({ config: cfg.config, home: cfg.home });
    try {
      const meta = await store.getMeta();
      const stats = await store.stats();
      if (meta && (meta.embedderId !== embedder.id || meta.dimensions !== embedder.dimensions)) {
        throw new Error(`built with ${meta.embedderId} (${meta.dimensions}-d), configured ${embedder.id}: run \`strata reembed\``);
      }
      const idx = stats.indexes.map((i) => `${i.name}(${i.type})`).join(', ') || 'none yet';
      return `${store.provider}: ${stats.rows} rows, ${stats.fragments ?? (stats.rows === 0 ? 0 : '?')} fragments, indexes: ${idx}`;
    } finally {
      await store.close();
    }
  });
  await check('orphans', async () => {
    const store = await createStoreFromConfig({ config: cfg.config, home: cfg.home });
    return checkOrphans(store, options.repair === true).finally(() => store.close());
  });
  await check('embedder', async () => {
    if (embedder.dimensions === 0) return `${embedder.id}: lexical only`;
    const started = Date.now();
    const { embeddings } = await embedder.doEmbed({ texts: ['strata doctor probe'], kind: 'query' });
    const len = embeddings[0]?.length ?? 0;
    if (len !== embedder.dimensions) throw new Error(`returned ${len}-d vectors, expected ${embedder.dimensions}`);
    await embedder.close?.();
    return `${embedder.id}: ${len}-d, answered in ${Date.now() - started} ms`;
  });
  await check('conversations', () => conversationCheck(cfg.home, options.repair === true));
  if (llmProviderOf({ config: cfg.config }) !== 'none') await check('llm', async () => (await checkLlm(cfg.config, cfg.home)) ?? 'none');
  const reranker = await createRerankerFromConfig({ config: cfg.config });
  if (reranker) {
    await check('reranker', async () => {
      const { results } = await reranker.doRerank({ query: 'probe', documents: ['probe document'] });
      return `${reranker.id}: ${results.length} result(s)`;
    });
  }
  return checks;
}

/** L0 messages missing from the conversation index (every entry is checked); `repair` indexes them. */
async function conversationCheck(home: string, repair: boolean): Promise<string> {
  const { Strata } = await import('../strata.js');
  const strata = await Strata.open({ home, allowEmbedderMismatch: true });
  try {
    const fixed = repair ? await strata.l0.repair() : undefined;
    const reindexed = repair ? await strata.indexConversations({ fromStart: true }) : undefined;
    if (repair) await strata.optimizeConversations({ force: true });
    const s = await strata.conversationIndexStatus({ verify: true });
    const repaired = fixed && reindexed ? `repaired: ${fixed.truncated} torn bytes cut, ${reindexed.inserted} messages indexed; ` : '';
    const embedded = s.unembedded > 0 ? `, ${s.unembedded} waiting for vectors` : '';
    const detail = `${repaired}${s.entries ?? 0} L0 messages, ${s.documents} indexed${embedded}`;
    if ((s.missing ?? 0) > 0)
      throw new Error(
        `${detail}; ${s.missing} L0 messages missing from the index: run \`strata ingest --reindex\` or \`strata doctor --repair\``,
      );
    return detail;
  } finally {
    await strata.close();
  }
}

export function registerAdminCommands(program: Command): void {
  program
    .command('init')
    .description('create the Strata home and a default config.json')
    .option('--force', 'overwrite an existing config.json')
    .action(async (opts: { force?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const home = resolveHome({ home: g.home });
      const result = await writeDefaultConfig({ home, force: opts.force });
      if (g.json) return printJson(result);
      process.stdout.write(result.written ? `wrote ${result.path}\n` : `${result.path} exists (use --force to overwrite)\n`);
    });

  program
    .command('stats')
    .description(
      "counts by scope and category within the caller's scopes, the embedder and LLM usage (--all-scopes: every scope and store health)",
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withOps(cmd, async (ops, session) => {
        const stats = await ops.run('stats', {});
        const usage = await ops.run('usage', {});
        if (g.json) return printJson({ ...stats, llmUsage: usage });
        const store = stats.owner ? `, ${stats.store.rows ?? 0} rows in all, ${stats.store.fragments ?? 0} fragments` : '';
        process.stdout.write(
          `${session.service ? `service   ${session.service}` : `home      ${session.home}`}\nas        ${describeCaller(ops.caller)}\nstore     ${stats.store.provider}: ${stats.memories} current memories in these scopes${store}\n`,
        );
        process.stdout.write(`embedder  ${stats.embedder.id} (${stats.embedder.dimensions}-d)\n\n`);
        printTable(
          ['scope', 'memories'],
          Object.entries(stats.byScope).map(([k, v]) => [k, v]),
        );
        process.stdout.write('\n');
        printTable(
          ['category', 'memories'],
          Object.entries(stats.byCategory).map(([k, v]) => [k, v]),
        );
        if (usage.calls > 0) {
          process.stdout.write('\n');
          printTable(
            ['llm usage', 'calls', 'input tokens', 'output tokens', 'cost (USD)'],
            [
              ['total', usage.calls, usage.inputTokens, usage.outputTokens, usage.costUsd.toFixed(4)],
              ...Object.entries(usage.byPurpose).map(([k, v]) => [k, v.calls, v.inputTokens, v.outputTokens, v.costUsd.toFixed(4)]),
            ],
          );
        }
      });
    });

  program
    .command('optimize')
    .description('compact the store, prune old versions and build indexes')
    .action(async (_opts: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withStrata(cmd, async (strata) => {
        const out = await strata.optimize({ force: true });
        if (g.json) return printJson(out);
        process.stdout.write(
          `optimized: fragments ${out.fragmentsBefore ?? 0} -> ${out.fragmentsAfter ?? 0}; indexes: ${out.indexes.join(', ') || 'none'}\n`,
        );
      });
    });

  program
    .command('doctor')
    .description(
      'check config, store, indexes, orphan tables, the conversation index against the L0 log, and that the embedder, reranker and LLM answer',
    )
    .option(
      '--repair',
      'drop orphan tables an interrupted reembed left behind, cut torn L0 tails and index every L0 message missing from the conversation index',
    )
    .action(async (opts: { repair?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const checks = await runChecks(g.home, { repair: opts.repair });
      // Claude Code hook failures and the resident process (whether or not config.json loads).
      checks.push(...(await residentHealth({ home: resolveHome({ home: g.home }) })));
      // What the background workers will do with this config (not checks: nothing here can fail).
      const settings = await loadConfig({ home: g.home }).then(
        (l) => describeWorkerSettings({ config: l.config }),
        () => [],
      );
      if (g.json) printJson({ ok: checks.every((c) => c.ok), checks, settings });
      else {
        for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(13)} ${c.detail}\n`);
        for (const s of settings) process.stdout.write(`      ${s.name.padEnd(13)} ${s.detail}\n`);
      }
      if (!checks.every((c) => c.ok)) process.exitCode = 1;
    });
}
