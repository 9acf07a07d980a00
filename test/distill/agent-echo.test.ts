import { afterAll, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { Strata } from '../../src/strata.js';
import { ctxOf, msg, removeDir, tempDir, writeL0 } from './helpers.js';

/**
 * The agent agreeing with a correction ("You're absolutely right - X") says the user's point back in
 * its own words (cosine 0.64 here, below every retelling threshold of a plain statement). Offline, with
 * real vectors (local embedder), the echo is a retelling of the user's memory when that was kept, and
 * is stored when the user's words were not (a question).
 */
const homes: string[] = [];
afterAll(async () => {
  for (const h of homes) await removeDir(h);
});

const ECHO = "You're absolutely right - a broken plugin should never crash the editor, especially on startup.";

async function session(userSaid: string): Promise<string[]> {
  const home = await tempDir();
  homes.push(home);
  const strata = await Strata.open({ home, overrides: { embedder: { provider: 'local' } } });
  try {
    await writeL0(home, [
      msg({ session: 'e1', role: 'user', content: userSaid, at: '2026-11-03T09:00:00Z' }),
      msg({ session: 'e1', role: 'assistant', content: ECHO, at: '2026-11-03T09:00:20Z' }),
    ]);
    await runDistill({ ctx: ctxOf(strata), home });
    return (await strata.list({ scopes: ['agent:main', 'global'], limit: 20 })).map((m) => m.text);
  } finally {
    await strata.close();
  }
}

describe("the agent's echo of a correction", () => {
  it("is not stored beside the user's own rule", async () => {
    expect(await session('plugin errors must NEVER be fatal')).toEqual(['Plugin errors must NEVER be fatal.']);
  }, 60_000);

  it("is stored when the user's words made no memory", async () => {
    expect(await session('why did the editor die when i loaded the plugin?')).toEqual([
      'A broken plugin should never crash the editor, especially on startup.',
    ]);
  }, 60_000);
});
