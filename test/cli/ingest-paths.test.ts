import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts-dev');

/**
 * `--path` at any level of a host's layout, with or without `--source`: people point at the folder
 * they see the transcripts in. Before, `~/.claude/projects` and `~/.codex/sessions` read 0 files
 * without a word, and `--path` without `--source` was ignored for the host defaults.
 */
describe('strata ingest --path (real transcripts in their host layouts)', () => {
  async function ingest(home: string, args: string[]) {
    const r = await runCli(['--home', home, 'ingest', '--no-embed', '--json', ...args]);
    return { ...r, summary: r.code === 0 ? (JSON.parse(r.stdout) as { files: { found: number }; messages: { new: number } }) : undefined };
  }

  it('reads the host folder, its transcript folder or one project / agent folder, and detects the host', async () => {
    const home = await tempHome();
    const src = join(home, 'src');
    await cp(FIXTURES, src, { recursive: true });
    const cases: Array<[string[], number]> = [
      [['--source', 'claude-code', '--path', join(src, 'claude-code', 'projects')], 4],
      [['--source', 'claude-code', '--path', join(src, 'claude-code', 'projects', 'C--Users-USER')], 1],
      [['--path', join(src, 'codex', 'sessions')], 2],
      [['--path', join(src, 'codex', 'sessions', '2025', '09', '25')], 1],
      [['--path', join(src, 'openclaw', 'agents', 'main', 'sessions')], 2],
      [['--path', join(src, 'claude-code')], 4],
    ];
    for (const [args, files] of cases) {
      const fresh = await tempHome();
      const r = await ingest(fresh, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.summary!.files.found, args.join(' ')).toBe(files);
      expect(r.summary!.messages.new, args.join(' ')).toBeGreaterThan(0);
    }
  }, 240_000);

  it('says what it expected when a folder holds no transcripts, and reads nothing else', async () => {
    const home = await tempHome();
    const empty = join(home, 'nothing-here');
    await mkdir(empty);
    const auto = await ingest(home, ['--path', empty]);
    expect(auto.code).not.toBe(0);
    expect(auto.stderr).toMatch(/No Claude Code, Codex or OpenClaw transcripts under .*nothing-here/);
    expect(auto.stderr).toMatch(/~\/\.claude\/projects/);
    const named = await runCli(['--home', home, 'ingest', '--no-embed', '--source', 'codex', '--path', empty]);
    expect(named.code).toBe(0);
    expect(named.stderr).toMatch(/no codex transcripts found under .*nothing-here\. Expected:/);
  }, 60_000);
});
