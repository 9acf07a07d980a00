/**
 * `npm run bench [-- <name> ...]`: runs the benchmarks and prints their tables.
 * Names: write, recall, locomo, admission, capture, distill, http (default: all available).
 */
import { runLocomo } from './locomo.js';
import { runRecallLatency, runWriteThroughput } from './engine-perf.js';

process.env.LANCEDB_LOG ??= 'error';

const BENCHES: Record<string, () => Promise<unknown>> = {
  write: () => runWriteThroughput(),
  recall: () => runRecallLatency(process.env.STRATA_BENCH_SIZES ? process.env.STRATA_BENCH_SIZES.split(',').map(Number) : undefined),
  locomo: () => runLocomo(),
  admission: async () => (await import('./admission.js')).runAdmissionBench(),
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(BENCHES);
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
