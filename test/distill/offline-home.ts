import { afterEach, beforeEach } from 'vitest';
import type { Strata } from '../../src/strata.js';
import { openStrata, removeDir, tempDir } from './helpers.js';

// Kept out of helpers.ts: the kill -9 test's child process imports helpers.ts outside vitest.
/** A fresh offline home per test (no embedder): `home()` and `strata()` read the current one. */
export function useOfflineHome(): { home: () => string; strata: () => Strata } {
  let home = '';
  let strata: Strata | undefined;
  beforeEach(async () => {
    home = await tempDir();
    strata = await openStrata(home);
  });
  afterEach(async () => {
    await strata?.close();
    await removeDir(home);
  });
  return { home: () => home, strata: () => strata! };
}
