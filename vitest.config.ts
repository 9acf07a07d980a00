import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // LanceDB and the TF.js embedder are CPU-heavy; the CI machine has 2 cores.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    env: { LANCEDB_LOG: 'error' },
    // One PostgreSQL server per run, started by the first test file that needs it.
    globalSetup: ['test/support/postgres-global-setup.ts'],
  },
});
