import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import type { Strata } from '../../src/strata.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { ctxOf, llmClient, msg, openStrata, removeDir, schemaNameOf, tempDir, themeModel, writeL0 } from './helpers.js';

let home: string;
let server: ScriptedLlmServer;

beforeEach(async () => {
  home = await tempDir();
});
afterEach(async () => {
  await server.close();
  await removeDir(home);
});

const conversation = [
  msg({ session: 'k1', role: 'user', content: 'I prefer dark mode in my editor.', at: '2026-11-01T09:00:00Z', id: 'k1-u1' }),
  msg({ session: 'k2', role: 'user', content: 'Remember we deploy on Fridays after review.', at: '2026-11-02T09:00:00Z', id: 'k2-u1' }),
  msg({ session: 'k3', role: 'user', content: 'I now prefer light mode in the editor.', at: '2026-11-03T09:00:00Z', id: 'k3-u1' }),
];

async function snapshot(strata: Strata): Promise<string[]> {
  const rows = await strata.list({ scopes: ['global', 'agent:main'], includeHistory: true, order: 'oldest' });
  return rows.map((r) => `${r.validTo ? 'old' : 'cur'} ${r.scope}: ${r.text}`).sort();
}

const expected = [
  'cur agent:main: The team deploys on Fridays only after review.',
  'cur global: The user prefers light mode in the editor.',
  'old global: The user prefers dark mode in the editor.',
];

describe('distill crash safety', () => {
  it('kill -9 in the middle of a run, then rerun: nothing lost, nothing doubled', async () => {
    let killNow: () => void = () => undefined;
    let killed = false;
    const reached = new Promise<void>((resolve) => (killNow = resolve));
    server = await startScriptedLlmServer({
      script: (request) => {
        // One extraction call covers the three short sessions; k1 and k2 are then stored, and the
        // child dies while waiting for the decision on k3 (which conflicts with k1).
        if (!killed && schemaNameOf(request) === 'decisions') {
          killed = true;
          killNow();
          return { kind: 'hang' };
        }
        return themeModel(request);
      },
    });
    await writeL0(home, conversation);
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/distill/distill-child.ts'), home, server.baseURL], {
      cwd: REPO_ROOT,
      env: { ...process.env, LANCEDB_LOG: 'error' },
      stdio: 'ignore',
    });
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await reached;
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const strata = await openStrata(home);
    try {
      // k1 and k2 were stored before the kill; k3 was not.
      expect(await snapshot(strata)).toEqual([
        'cur agent:main: The team deploys on Fridays only after review.',
        'cur global: The user prefers dark mode in the editor.',
      ]);
      // The rerun takes over the dead child's stale lock and redoes only k3.
      server.requests.length = 0;
      const report = await runDistill({
        ctx: ctxOf(strata),
        home,
        llm: llmClient(server.baseURL),
        lockTimeoutMs: 15_000,
        lockStaleMs: 2000,
      });
      expect(report.messages).toEqual({ read: 1, distilled: 1, pending: 0 });
      expect(await snapshot(strata)).toEqual(expected);
    } finally {
      await strata.close();
    }
  }, 30_000);

  it('a crash after storing but before the cursor moved: the redo stores nothing twice', async () => {
    server = await startScriptedLlmServer({ script: themeModel });
    await writeL0(home, conversation);
    const strata = await openStrata(home);
    try {
      await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL) });
      expect(await snapshot(strata)).toEqual(expected);
      await rm(join(home, 'distill', 'state.json')); // the cursor never advanced
      const redo = await runDistill({ ctx: ctxOf(strata), home, llm: llmClient(server.baseURL) });
      expect(redo.messages.read).toBe(3);
      expect(redo.changes).toEqual([]);
      expect(await snapshot(strata)).toEqual(expected);
    } finally {
      await strata.close();
    }
  });
});
