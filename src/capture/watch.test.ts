import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { l0Of, piSession, readL0, tempDir } from '../../test/capture/helpers.js';
import { CursorStore } from './cursor-store.js';
import { watch } from './watch.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('watch', () => {
  it.each([
    ['file events', 60_000],
    ['polling only', 50],
  ])('ingests appends as they happen (%s) and stops with cursors committed', async (_name, pollIntervalMs) => {
    const home = join(tmp.dir, 'home');
    const root = join(tmp.dir, 'oc');
    const dir = join(root, 'agents', 'main', 'sessions');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 's.jsonl');
    writeFileSync(path, piSession('s', 4));
    const controller = new AbortController();
    const errors: unknown[] = [];
    const watching = watch({
      home,
      log: l0Of(home),
      sources: [{ kind: 'openclaw', root }],
      abortSignal: controller.signal,
      pollIntervalMs,
      debounceMs: 20,
      onError: (e) => errors.push(e),
    });
    await until(async () => (await readL0(home)).length === 4, 'the initial run');
    appendFileSync(path, piSession('s', 6, 4));
    await until(async () => (await readL0(home)).length === 10, 'the appended messages');
    controller.abort();
    const result = await watching;
    expect(errors).toEqual([]);
    expect(result.runs).toBeGreaterThanOrEqual(2);
    const cursors = Object.values(await new CursorStore({ home }).load());
    expect(cursors.map((c) => c.pending)).toEqual([null]);
  });
});
