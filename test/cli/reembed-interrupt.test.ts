/**
 * Issue 16 item 4: Ctrl-C during `strata reembed` leaves no orphan table and the store unchanged.
 * The new embedder is a scripted OpenAI-compatible server that answers slowly, so the signal lands
 * mid-rebuild.
 */
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempHome } from '../support/run-cli.js';
import { startScriptedServer, type ScriptFunction, type ScriptedServer } from '../support/scripted-http-server.js';
import { openAIEmbeddingsScript } from '../support/embedding-scripts.js';

describe('reembed interrupted (issue 16, item 4)', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    const embed = openAIEmbeddingsScript({ dimensions: 8 });
    // Each answer waits, so the rebuild is still running when the signal comes.
    const slow: ScriptFunction = async (req) => ({ ...((await embed(req)) as { json?: unknown }), delayMs: 400 });
    server = await startScriptedServer({ routes: { 'POST /v1/embeddings': slow } });
  });
  afterAll(() => server.close());

  it('SIGINT drops the half-built table, exits 130 and leaves the old store in use', async () => {
    const home = await tempHome();
    const lines = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({ text: `memory number ${i} about topic ${i % 17}`, scope: 'global' }),
    ).join('\n');
    expect((await runCli(['--home', home, 'import', '-'], { input: lines })).code).toBe(0);
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ embedder: { provider: 'openai', baseURL: `${server.url}/v1`, model: 'scripted', dimensions: 8 } }),
    );

    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), '--home', home, 'reembed'], {
      cwd: REPO_ROOT,
      env: { ...process.env, LANCEDB_LOG: 'error' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', done));
    // Interrupt once the rebuild is under way (its first embedding request arrived).
    while (server.requestsTo('/v1/embeddings').length === 0) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/error \[ABORTED\]: reembed interrupted; nothing changed/);

    const tables = (await readdir(join(home, 'store'))).filter((f) => f.endsWith('.lance'));
    expect(tables).toEqual(['memories.lance']);
    await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    const doctor = await runCli(['--home', home, 'doctor']);
    expect(doctor.stdout).toMatch(/ok\s+orphans\s+none/);
    expect(doctor.stdout).toMatch(/600 rows/);
  }, 120_000);
});
