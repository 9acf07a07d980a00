import { describe, expect, it } from 'vitest';
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempHome } from '../support/run-cli.js';

describe('strata CLI', () => {
  it('adds, recalls with --json, lists, gets, updates and forgets', async () => {
    const home = await tempHome();
    const add = await runCli(['--home', home, 'add', 'The user prefers dark mode in every editor', '--category', 'preference', '--json']);
    expect(add.code, add.stderr).toBe(0);
    const created = JSON.parse(add.stdout) as { action: string; id: string };
    expect(created.action).toBe('created');

    const agentAdd = await runCli([
      '--home',
      home,
      '--agent',
      'coder',
      'add',
      'Integration tests need the database container running first',
    ]);
    expect(agentAdd.code, agentAdd.stderr).toBe(0);
    expect(agentAdd.stdout).toMatch(/added .* to agent:coder/);

    const recall = await runCli(['--home', home, 'recall', 'editor dark mode', '--json']);
    expect(recall.code, recall.stderr).toBe(0);
    const body = JSON.parse(recall.stdout) as {
      results: Array<{ record: { id: string; text: string; scope: string; category: string }; score: number }>;
    };
    expect(body.results[0]!.record).toMatchObject({ id: created.id, scope: 'global', category: 'preference' });
    expect(typeof body.results[0]!.score).toBe('number');

    // The agent's memory is invisible to a global-only reader and visible to the agent.
    const hidden = await runCli(['--home', home, '--scope', 'global', 'recall', 'integration tests database', '--json']);
    expect(JSON.parse(hidden.stdout).results).toHaveLength(0);
    const visible = await runCli(['--home', home, '--agent', 'coder', 'recall', 'integration tests database', '--json']);
    expect(JSON.parse(visible.stdout).results[0].record.scope).toBe('agent:coder');

    const update = await runCli(['--home', home, 'update', created.id, '--importance', '0.9', '--json']);
    expect(update.code, update.stderr).toBe(0);
    const got = await runCli(['--home', home, 'get', created.id, '--json']);
    expect(JSON.parse(got.stdout).importance).toBe(0.9);

    const list = await runCli(['--home', home, '--agent', 'coder', 'list', '--json']);
    expect(JSON.parse(list.stdout).memories).toHaveLength(2);

    const forget = await runCli(['--home', home, 'forget', created.id, '--json']);
    expect(JSON.parse(forget.stdout).deleted).toBe(1);
    const after = await runCli(['--home', home, 'get', created.id]);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/NOT_FOUND/);
  });

  it('reports an exact duplicate instead of adding it', async () => {
    const home = await tempHome();
    await runCli(['--home', home, 'add', 'Never push directly to main.']);
    const again = await runCli(['--home', home, 'add', '  never push directly   to MAIN', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'duplicate', duplicateOf: { kind: 'exact' } });
    const stats = await runCli(['--home', home, 'stats', '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({ memories: 1, byScope: { global: 1 } });
  });

  it('rejects an invalid scope with a usage error and writes nothing', async () => {
    const home = await tempHome();
    const bad = await runCli(['--home', home, '--scope', "x' OR '1'='1", 'add', 'hello there memory']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid scope/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const stats = await runCli(['--home', home, '--scope', 'global', 'list', '--json']);
    expect(JSON.parse(stats.stdout).memories).toHaveLength(0);
  });

  it('exits 2 on unknown options and names the corrupt config file and field', async () => {
    const home = await tempHome();
    const usage = await runCli(['--home', home, 'recall']);
    expect(usage.code).toBe(2);
    await writeFile(join(home, 'config.json'), '{ "embedder": { "provider": "nope" } }');
    const bad = await runCli(['--home', home, 'list']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('config.json');
    expect(bad.stderr).toContain('embedder.provider');
    await writeFile(join(home, 'config.json'), '{ "embedder": ');
    const corrupt = await runCli(['--home', home, 'list']);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain('config.json');
  });

  it('exports every field as JSONL and imports it idempotently into another home, reporting bad lines', async () => {
    const home = await tempHome();
    for (const text of ['Alpha memory about tea', 'Beta memory about trains', 'Gamma memory about tents']) {
      await runCli(['--home', home, 'add', text]);
    }
    const file = join(home, 'out.jsonl');
    const exp = await runCli(['--home', home, 'export', '-o', file]);
    expect(exp.code, exp.stderr).toBe(0);
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(Object.keys(lines[0]).sort()).toEqual(
      [
        'accessCount',
        'category',
        'confidence',
        'contentHash',
        'createdAt',
        'embeddingModel',
        'id',
        'importance',
        'lastAccessedAt',
        'scope',
        'source',
        'supersededBy',
        'supersedes',
        'tags',
        'text',
        'updatedAt',
        'validFrom',
        'validTo',
      ].sort(),
    );
    await writeFile(file, (await readFile(file, 'utf8')) + '{not json}\n{"text": "ok line", "scope": "bogus"}\n');
    const other = await tempHome();
    const imp = await runCli(['--home', other, 'import', file, '--json']);
    const report = JSON.parse(imp.stdout);
    expect(report.imported).toBe(3);
    expect(report.invalid.map((i: { line: number }) => i.line)).toEqual([4, 5]);
    expect(imp.code).toBe(1);
    const again = await runCli(['--home', other, 'import', file, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ imported: 0, skippedExisting: 3 });
  });

  it('init writes a default config once; doctor reports config, store and embedder', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const home = await mkdtemp(join(tmpdir(), 'strata-init-'));
    const init = await runCli(['--home', home, 'init', '--json']);
    expect(JSON.parse(init.stdout)).toMatchObject({ written: true });
    const again = await runCli(['--home', home, 'init', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ written: false });
    await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    await runCli(['--home', home, 'add', 'a memory so the store exists']);
    const doctor = await runCli(['--home', home, 'doctor', '--json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: Array<{ name: string; ok: boolean }> };
    expect(report.ok).toBe(true);
    // Then the Claude Code hooks' failure log and the resident process (src/resident/health.ts).
    expect(report.checks.map((c) => c.name)).toEqual([
      'config',
      'store',
      'orphans',
      'embedder',
      'conversations',
      'claude-code hooks',
      'resident',
    ]);
    // An unreachable remote embedder makes doctor fail with exit 1 and say which check failed.
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({ embedder: { provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'm', dimensions: 8 } }),
    );
    const broken = await runCli(['--home', home, 'doctor', '--json']);
    expect(broken.code).toBe(1);
    const checks = JSON.parse(broken.stdout).checks as Array<{ name: string; ok: boolean }>;
    expect(checks.find((c) => c.name === 'embedder')?.ok).toBe(false);
  });
});
