import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempHome, type CliResult } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { msg, removeDir, themeModel, writeL0 } from './helpers.js';

function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, LANCEDB_LOG: 'error', STRATA_LLM_PROVIDER: 'none', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

let home: string;
let server: ScriptedLlmServer;
beforeEach(async () => {
  home = await tempHome();
  server = await startScriptedLlmServer({ script: themeModel });
});
afterEach(async () => {
  await server.close();
  await removeDir(home);
});

describe('strata distill / history / revert (CLI)', () => {
  it('distills with an LLM from the environment, shows history, reverts a supersede', async () => {
    const llmEnv = { STRATA_LLM_PROVIDER: 'openai', STRATA_LLM_BASE_URL: server.baseURL, STRATA_LLM_MODEL: 'scripted' };
    await writeL0(home, [
      msg({ session: 'c1', role: 'user', content: 'I prefer dark mode in my editor.', at: '2026-11-01T09:00:00Z', id: 'c1-u1' }),
      msg({ session: 'c2', role: 'user', content: 'I now prefer light mode in the editor.', at: '2026-11-02T09:00:00Z', id: 'c2-u1' }),
    ]);
    const run = await cli(['--home', home, '--json', 'distill'], llmEnv);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      decisions: Record<string, number>;
      tokens: { total: number };
      changes: Array<{ kind: string; id: string; targetId?: string }>;
    };
    expect(report.decisions).toMatchObject({ create: 1, supersede: 1 });
    expect(report.tokens.total).toBeGreaterThan(0);
    const sup = report.changes.find((c) => c.kind === 'supersede')!;

    const shown = await cli(['--home', home, 'history', sup.targetId!]);
    expect(shown.stdout).toMatch(/distill\s+create/);
    expect(shown.stdout).toMatch(/distill\s+supersede/);
    expect(shown.stdout).toContain('preference changed');
    // history and recall --history say which memory is current, and the superseded period ends
    // when its successor's starts (the message time, not the run).
    expect(shown.stdout).toContain(`${sup.targetId}: not current (valid 2026-11-01 to 2026-11-02; current: ${sup.id})`);
    const current = await cli(['--home', home, 'history', sup.id]);
    expect(current.stdout).toContain(`${sup.id}: current (valid from 2026-11-02)`);
    const recalled = await cli(['--home', home, '--json', 'recall', 'dark light mode editor', '--history']);
    const rows = (JSON.parse(recalled.stdout) as { results: Array<{ record: { id: string; validTo: string | null } }> }).results;
    expect(rows.map((r) => [r.record.id, r.record.validTo === null])).toEqual([
      [sup.id, true],
      [sup.targetId, false],
    ]);

    const reverted = await cli(['--home', home, 'revert', sup.id]);
    expect(reverted.stdout).toMatch(new RegExp(`^reverted supersede of \\S+: restored ${sup.targetId}; removed ${sup.id}\\n$`));
  }, 60_000);

  it('without an LLM uses rule-based capture (dry run); a bad provider is a config error', async () => {
    await writeL0(home, [
      msg({ session: 'n1', role: 'user', content: 'I always use pnpm in this repo.', at: '2026-11-01T09:00:00Z', id: 'n1-u1' }),
    ]);
    const run = await cli(['--home', home, 'distill', '--dry-run']);
    expect(run.stdout).toMatch(/^dry run \(nothing written\) with rule-based capture \(no LLM configured\)/);
    expect(run.stdout).toMatch(/create\s+1/);
    const bad = await cli(['--home', home, 'distill'], { STRATA_LLM_PROVIDER: 'gemini', STRATA_LLM_MODEL: 'x' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/CONFIG_INVALID.*Unknown LLM provider "gemini"/);
  }, 30_000);
});
