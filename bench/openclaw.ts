/**
 * `npm run bench -- openclaw`: what Strata costs a real OpenClaw agent turn. For each pinned
 * OpenClaw release (test/e2e/versions.ts, on its own Node), in a temp HOME against the scripted
 * model server of the e2e suite: N `openclaw agent --local` turns with the plugin not installed,
 * then N with Strata installed as the README says (packed from this checkout, `npm install -g`,
 * `strata install openclaw --apply`) and one seeded memory, so every turn recalls. Per turn: wall
 * time and the peak RSS of the OpenClaw process (`/usr/bin/time`'s maximum resident set).
 *
 * Env: STRATA_BENCH_OPENCLAW_TURNS (default 5), STRATA_BENCH_OPENCLAW_VERSIONS (comma-separated,
 * default all pinned), STRATA_BENCH_OPENCLAW_SUITE=1 also runs the OpenClaw e2e suite and prints
 * its wall time. A turn's wall time is mostly OpenClaw starting up; compare the two rows.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { agentPolicy, isAgentTurn, lastUserText } from '../test/e2e/openclaw/scenario.js';
import { createWorld, type RunResult, type World } from '../test/e2e/openclaw/world.js';
import { startModelServer, type ModelServer } from '../test/e2e/support/model-server.js';
import { installStrata } from '../test/e2e/support/strata-package.js';
import { ensureNode, ensurePackage } from '../test/e2e/support/toolchain.js';
import { OPENCLAW_VERSIONS } from '../test/e2e/versions.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const ROOT = resolve(import.meta.dirname, '..');
const SEEDED = 'The user prefers the zebra-quartz colour theme in every editor.';

interface Series {
  version: string;
  strata: boolean;
  turns: RunResult[];
  /** Turns whose model request carried the recalled memory block. */
  injected: number;
}

async function turns(world: World, model: ModelServer, label: string, n: number): Promise<{ turns: RunResult[]; injected: number }> {
  const out: RunResult[] = [];
  let injected = 0;
  for (let i = 0; i < n; i++) {
    const from = model.requests.length;
    const turn = await world.openclaw(
      ['agent', '--local', '--agent', 'main', '--message', `Which colour theme should my editor use? (${label} turn ${i + 1})`],
      { measure: true },
    );
    if (turn.code !== 0) throw new Error(`openclaw agent --local failed (${label}, exit ${turn.code}):\n${turn.stderr.slice(-3000)}`);
    const request = model.requests.slice(from).find(isAgentTurn);
    if (request && lastUserText(request).includes('zebra-quartz')) injected++;
    out.push(turn);
    process.stdout.write(`  ${label} turn ${i + 1}: ${(turn.ms / 1000).toFixed(1)} s, ${Math.round((turn.maxRssKb ?? 0) / 1024)} MiB\n`);
  }
  return { turns: out, injected };
}

async function benchVersion(version: string, nodeVersion: string, n: number): Promise<Series[]> {
  const node = await ensureNode(nodeVersion);
  const [openclaw, strata] = await Promise.all([ensurePackage({ name: 'openclaw', version, node }), installStrata(node)]);
  const model = await startModelServer({ policy: agentPolicy });
  const world = await createWorld({ openclaw, strata, model });
  try {
    const seeded = await world.strata(['add', SEEDED, '--category', 'preference', '--agent', 'main']);
    if (seeded.code !== 0) throw new Error(`strata add failed: ${seeded.stderr}`);
    process.stdout.write(`OpenClaw ${version} on Node ${nodeVersion}:\n`);
    const without = await turns(world, model, 'without Strata', n);

    const installed = await world.strata(['install', 'openclaw', '--apply']);
    if (installed.code !== 0) throw new Error(`strata install openclaw failed: ${installed.stderr}`);
    // The budget a loaded machine needs for every turn to recall (a skipped recall would flatter Strata).
    const config = await world.readConfig();
    const entry = (config.plugins as Record<string, Record<string, Record<string, unknown>>>).entries!.strata!;
    entry.config = { ...(entry.config as object), recallTimeoutMs: 15_000 };
    await writeFile(world.configPath, JSON.stringify(config, null, 2));
    const withStrata = await turns(world, model, 'with Strata', n);
    return [
      { version, strata: false, ...without },
      { version, strata: true, ...withStrata },
    ];
  } finally {
    await world.close();
    await model.close();
  }
}

/** Wall time of the real-OpenClaw e2e suite (the command CI runs for it). */
async function suiteWallTime(): Promise<{ seconds: number; code: number | null }> {
  const started = Date.now();
  const child = spawn('npx', ['vitest', 'run', '-c', 'vitest.e2e.config.ts', 'test/e2e/openclaw'], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((done) => child.once('close', done));
  return { seconds: (Date.now() - started) / 1000, code };
}

export async function runOpenClawBench(): Promise<void> {
  const n = Number(process.env.STRATA_BENCH_OPENCLAW_TURNS ?? 5);
  const only = process.env.STRATA_BENCH_OPENCLAW_VERSIONS?.split(',').map((v) => v.trim());
  const versions = OPENCLAW_VERSIONS.filter((v) => !only || only.includes(v.version));
  const series: Series[] = [];
  for (const { version, node } of versions) series.push(...(await benchVersion(version, node, n)));

  const rows = series.map((s) => {
    const ms = summarize(s.turns.map((t) => t.ms));
    const rss = summarize(s.turns.map((t) => (t.maxRssKb ?? 0) / 1024));
    return [
      s.version,
      s.strata ? 'with Strata' : 'plugin not installed',
      s.turns.length,
      ms.p50 / 1000,
      ms.p95 / 1000,
      ms.mean / 1000,
      rss.p50,
      Math.max(...s.turns.map((t) => (t.maxRssKb ?? 0) / 1024)),
      s.strata ? `${s.injected}/${s.turns.length}` : '-',
    ];
  });
  printTable(
    `openclaw agent --local turns against the scripted model server (${n} per row; under load if the machine is shared)`,
    ['OpenClaw', 'plugin', 'turns', 'p50 s', 'p95 s', 'mean s', 'RSS p50 MiB', 'peak RSS MiB', 'recalled'],
    rows,
  );
  const deltas = versions.map(({ version }) => {
    const [off, on] = [false, true].map((strata) =>
      summarize(series.find((s) => s.version === version && s.strata === strata)!.turns.map((t) => t.ms)),
    );
    return [version, (on!.p50 - off!.p50) / 1000, (on!.p95 - off!.p95) / 1000];
  });
  printTable("Strata's cost per turn (with minus without)", ['OpenClaw', 'Δ p50 s', 'Δ p95 s'], deltas);

  if (process.env.STRATA_BENCH_OPENCLAW_SUITE === '1') {
    const suite = await suiteWallTime();
    printTable(
      'OpenClaw e2e suite',
      ['command', 'wall s', 'exit'],
      [['npx vitest run -c vitest.e2e.config.ts test/e2e/openclaw', suite.seconds, String(suite.code)]],
    );
  }
}
