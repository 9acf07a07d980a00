/**
 * `npm run bench [-- <name> ...]`: runs the benchmarks and prints their tables.
 * Names: write, recall, locomo, embedders, ann, admission, capture, conversations, distill, rules, supersession, http, hooks, resident-ops,
 * postgres, redaction, lines, locks, openclaw (default: all available).
 */
import { runLocomo } from './locomo.js';
import { runRecallLatency, runWriteThroughput } from './engine-perf.js';

process.env.LANCEDB_LOG ??= 'error';

const BENCHES: Record<string, () => Promise<unknown>> = {
  write: () => runWriteThroughput(),
  recall: () => runRecallLatency(process.env.STRATA_BENCH_SIZES ? process.env.STRATA_BENCH_SIZES.split(',').map(Number) : undefined),
  locomo: () => runLocomo(),
  embedders: async () => (await import('./embedders.js')).runEmbedderBench(),
  ann: async () => (await import('./ann.js')).runAnnBench(),
  admission: async () => {
    const { runAdmissionBench, admissionFlags } = await import('./admission.js');
    // The real-conversation tables cut each session into batches as `strata distill` does, which
    // counts tokens with the real tokenizer (the estimate it falls back on cuts smaller batches).
    await (await import('../src/core/distill/tokens.js')).loadTokenizer();
    runAdmissionBench(admissionFlags(process.argv));
  },
  distill: async () => {
    await (await import('./distill.js')).runDistillBench();
    await (await import('./distill-real.js')).runRealDistillBench();
  },
  rules: async () => (await import('./rules.js')).runRulesBench({ all: process.argv.includes('--all') }),
  supersession: async () => {
    const { runSupersessionBench, supersessionArgs } = await import('./supersession.js');
    await runSupersessionBench(supersessionArgs(process.argv));
  },
  // The capture benchmark measures RSS per case, so it runs in child processes of its own.
  capture: async () => {
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const script = fileURLToPath(new URL('./capture.ts', import.meta.url));
    const out = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
    if (out.status !== 0) throw new Error(`capture benchmark failed (exit ${out.status})`);
  },
  conversations: async () => (await import('./conversations.js')).runConversationsBench(),
  http: async () => (await import('./http-load.js')).runHttpLoadBench(),
  // Claude Code hooks as installed: child processes against the built package and a resident process.
  hooks: async () => (await import('./hooks.js')).runHooksBench(),
  // strata recall and strata mcp through the resident vs in-process (built package, child processes).
  'resident-ops': async () => (await import('./resident-ops.js')).runResidentOpsBench(),
  postgres: async () => (await import('./postgres.js')).runPostgresBench(),
  redaction: async () => (await import('./redaction.js')).runRedactionBench(),
  lines: async () => (await import('./line-reader.js')).runLineReaderBench(),
  locks: async () => (await import('./locks.js')).runLocksBench(),
  // Real OpenClaw turns with and without the plugin (installs pinned OpenClaw releases; minutes).
  openclaw: async () => (await import('./openclaw.js')).runOpenClawBench(),
};

// `--name=value` flags belong to the benchmarks (e.g. `postgres --sizes=10000`), not to the list of names.
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wanted = names.length ? names : Object.keys(BENCHES);
for (const name of wanted) {
  const bench = BENCHES[name];
  if (!bench) {
    console.error(`unknown benchmark ${name}; choose from ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  const started = Date.now();
  console.log(`\n## ${name}`);
  await bench();
  console.log(`\n(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit(0);
