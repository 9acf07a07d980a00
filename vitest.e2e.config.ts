import { defineConfig } from 'vitest/config';

/**
 * End-to-end suites against the real host programs (OpenClaw, Claude Code) installed from npm at
 * test time (test/e2e/support/toolchain.ts). Separate from `npm test`: they install pinned hosts
 * into a cache and run whole agent turns, so they get long timeouts and one file at a time.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 30 * 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    fileParallelism: false,
    env: { LANCEDB_LOG: 'error' },
  },
});
