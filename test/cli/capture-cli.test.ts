import { describe, expect, it } from 'vitest';
import { cp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runCli, tempHome } from '../support/run-cli.js';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts');

describe('strata ingest / sessions / conversations search / cursor (CLI)', () => {
  it('ingests the shared Claude Code and Codex transcripts exactly once and makes them searchable', async () => {
    const home = await tempHome();
    const src = join(home, 'src');
    await cp(FIXTURES, src, { recursive: true });

    const first = await runCli(['--home', home, 'ingest', '--source', 'claude-code', '--path', join(src, 'claude-code'), '--json']);
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary.messages.new).toBeGreaterThan(10);
    expect(summary.errors).toEqual([]);

    const codex = await runCli(['--home', home, 'ingest', '--source', 'codex', '--path', join(src, 'codex'), '--json']);
    expect(JSON.parse(codex.stdout).messages.new).toBeGreaterThan(0);

    // A second run reads nothing new: cursors were committed.
    const again = await runCli(['--home', home, 'ingest', '--source', 'claude-code', '--path', join(src, 'claude-code'), '--json']);
    expect(JSON.parse(again.stdout).messages.new).toBe(0);

    const sessions = JSON.parse((await runCli(['--home', home, 'sessions', '--json'])).stdout).sessions as Array<{
      host: string;
      messages: number;
    }>;
    expect(new Set(sessions.map((s) => s.host))).toEqual(new Set(['claude-code', 'codex']));
    const total = sessions.reduce((a, s) => a + s.messages, 0);
    expect(total).toBe(summary.messages.new + JSON.parse(codex.stdout).messages.new);

    // Without an agent the CLI reads no one's conversations; the owner of the home asks for all of them.
    const unscoped = await runCli(['--home', home, 'conversations', 'search', 'transcript fixtures', '--json']);
    expect(unscoped.code, unscoped.stderr).toBe(0);
    expect(JSON.parse(unscoped.stdout)).toMatchObject({ results: [], note: expect.stringMatching(/no agent/) });
    const search = await runCli(['--home', home, '--all-scopes', 'conversations', 'search', 'transcript fixtures', '--json']);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).results.length).toBeGreaterThan(0);

    const cursors = JSON.parse((await runCli(['--home', home, 'cursor', 'show', '--json'])).stdout).cursors as Array<{
      committed: number;
      pending: boolean;
    }>;
    expect(cursors.length).toBeGreaterThanOrEqual(2);
    expect(cursors.every((c) => c.committed > 0 && !c.pending)).toBe(true);

    // Reset + re-ingest: the dedupe keeps the log exact.
    await runCli(['--home', home, 'cursor', 'reset']);
    const rerun = await runCli(['--home', home, 'ingest', '--source', 'claude-code', '--path', join(src, 'claude-code'), '--json']);
    expect(JSON.parse(rerun.stdout).messages.new).toBe(0);
  }, 120_000);
});
