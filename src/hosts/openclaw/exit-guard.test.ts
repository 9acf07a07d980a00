import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const GUARD = join(import.meta.dirname, 'exit-guard.ts');

/**
 * A one-shot command the way OpenClaw ends one: work started by a fire-and-forget hook, then
 * `process.exit(code)` right after the output. Real processes: the guard is about process exit.
 */
async function oneShot(options: { held: boolean; workMs: number; maxWaitMs?: number; code?: number }): Promise<{ code: number; wrote: string | undefined }> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-exit-guard-'));
  dirs.push(dir);
  const out = join(dir, 'captured.txt');
  const script = `
    import { writeFile } from 'node:fs/promises';
    import { holdExitFor } from ${JSON.stringify(GUARD)};
    const work = new Promise((r) => setTimeout(r, ${options.workMs})).then(() => writeFile(${JSON.stringify(out)}, 'turn'));
    ${options.held ? `holdExitFor(work${options.maxWaitMs ? `, { maxWaitMs: ${options.maxWaitMs} }` : ''});` : ''}
    setImmediate(() => process.exit(${options.code ?? 0}));
  `;
  const code = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
  return { code, wrote: await readFile(out, 'utf8').catch(() => undefined) };
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('exit guard', () => {
  it('without it, process.exit cuts a capture in flight short (the failure it exists for)', async () => {
    expect(await oneShot({ held: false, workMs: 300 })).toEqual({ code: 0, wrote: undefined });
  });

  it('process.exit waits for held work, then exits with the code it was given', async () => {
    expect(await oneShot({ held: true, workMs: 300, code: 3 })).toEqual({ code: 3, wrote: 'turn' });
  });

  it('never waits longer than maxWaitMs', async () => {
    const started = Date.now();
    const result = await oneShot({ held: true, workMs: 20_000, maxWaitMs: 200, code: 2 });
    expect(result).toEqual({ code: 2, wrote: undefined });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
