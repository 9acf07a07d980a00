import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Strata } from '../../src/strata.js';
import { StrataError } from '../../src/errors/index.js';
import { tempHome } from '../support/run-cli.js';
import { newId } from '../../src/core/write/ids.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/engine');

function child(script: string, args: string[]) {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
    env: { ...process.env, LANCEDB_LOG: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) =>
    proc.on('close', (code, signal) => res({ code, signal, stdout, stderr })),
  );
  return { proc, done };
}

describe('engine faults', () => {
  it('kill -9 during an import of 50k lines, then a rerun, leaves the exact count with no duplicates', async () => {
    const home = await tempHome();
    const file = join(home, 'big.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 50_000; i++)
      lines.push(JSON.stringify({ id: newId(), text: `imported memory ${i} about topic ${i % 97}`, scope: i % 2 ? 'global' : 'agent:a' }));
    await writeFile(file, lines.join('\n') + '\n');

    const first = child('import-file.ts', [home, file]);
    // Kill once some batches have landed (poll the store from here).
    const probe = await Strata.open({ home });
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if ((await probe.count({ scopes: ['global', 'agent:a'] }).catch(() => 0)) >= 5_000) break;
    }
    first.proc.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const partial = await probe.count({ scopes: ['global', 'agent:a'] });
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(50_000);
    await probe.close();

    const rerun = child('import-file.ts', [home, file]);
    const result = await rerun.done;
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.imported + report.skippedExisting).toBe(50_000);

    const check = await Strata.open({ home });
    expect(await check.count({ scopes: ['global', 'agent:a'] })).toBe(50_000);
    const ids = new Set<string>();
    for await (const line of check.export()) ids.add(JSON.parse(line).id);
    expect(ids.size).toBe(50_000);
    await check.close();
    // Two imports of 50k lines: a busy 2-core machine needs more than the default minute.
  }, 240_000);

  it('two processes adding at once lose nothing and double nothing', async () => {
    const home = await tempHome();
    const n = 60;
    const a = child('add-many.ts', [home, 'alpha', String(n)]);
    const b = child('add-many.ts', [home, 'beta', String(n)]);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const strata = await Strata.open({ home });
    const all = await strata.list({ scopes: ['global'], limit: 1000 });
    const texts = all.map((r) => r.text);
    expect(new Set(texts).size).toBe(texts.length);
    // n/2 shared + n/2 private per process.
    expect(texts.length).toBe(n / 2 + n);
    await strata.close();
  });

  it('rejects bad input with clear errors and writes nothing', async () => {
    const home = await tempHome();
    const strata = await Strata.open({ home });
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['INVALID_SCOPE', () => strata.remember({ text: 'valid text here', scope: "x' OR '1'='1" })],
      ['INVALID_ARGUMENT', () => strata.remember({ text: 'x'.repeat(9000) })],
      ['INVALID_ARGUMENT', () => strata.remember({ text: 'broken \uFFFD bytes from a latin-1 file' })],
      ['INVALID_ARGUMENT', () => strata.remember({ text: '   ' })],
      ['INVALID_ARGUMENT', () => strata.rememberMany({ items: [{ text: 'good one' }, { text: 'bad', importance: 7 }] })],
      ['INVALID_SCOPE', () => strata.recall({ query: 'anything', scopes: [] })],
      ['INVALID_SCOPE', () => strata.list({ scopes: ["global' OR 1=1 --"] })],
    ];
    for (const [code, attempt] of attempts) {
      const error = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(StrataError.isInstance(error), `expected a StrataError for ${code}`).toBe(true);
      expect((error as StrataError).code).toBe(code);
      expect((error as StrataError).message.length).toBeGreaterThan(20);
    }
    expect(await strata.count({ scopes: ['global'] })).toBe(0);
    await strata.close();
  });

  it('a store opened with another embedder fails with a message that says to run strata reembed', async () => {
    const home = await tempHome();
    const first = await Strata.open({ home });
    await first.remember({ text: 'written with the lexical-only embedder' });
    await first.close();
    const error = await Strata.open({ home, overrides: { embedder: { provider: 'local' } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as StrataError).code).toBe('EMBEDDER_MISMATCH');
    expect((error as Error).message).toContain('strata reembed');

    // reembed rebuilds into the configured embedder and the store opens normally afterwards.
    const re = await Strata.open({ home, overrides: { embedder: { provider: 'local' } }, allowEmbedderMismatch: true });
    expect((await re.reembed()).rows).toBe(1);
    await re.close();
    const after = await Strata.open({ home, overrides: { embedder: { provider: 'local' } } });
    const { results } = await after.recall({ query: 'lexical only embedder', scopes: ['global'] });
    expect(results[0]?.scores.vector).toBeGreaterThan(0);
    await after.close();
  });

  it('an unwritable home gives a clear error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-unwritable-'));
    const file = join(dir, 'not-a-dir');
    await writeFile(file, 'x');
    const error = await (async () => {
      const strata = await Strata.open({ home: join(file, 'home'), overrides: { embedder: { provider: 'none' } } });
      try {
        await strata.remember({ text: 'this cannot be written anywhere' });
      } finally {
        await strata.close().catch(() => undefined);
      }
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(StrataError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('not-a-dir');
  });
});
