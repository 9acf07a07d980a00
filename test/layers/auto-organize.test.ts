import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  autoOrganize,
  layerPaths,
  readCheckpoint,
  serializeScene,
  syncSceneIndex,
  type AutoOrganizeResult,
} from '../../src/core/layers/index.js';
import { withFileLock } from '../../src/util/file-lock.js';
import { Strata } from '../../src/strata.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-llm-server.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { extractionInput, memoriesReply, msg, removeDir, schemaNameOf, tempDir, writeL0 } from '../distill/helpers.js';
import { runCli, tempHome } from '../support/run-cli.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import { layerEnv, treeSnapshot, type LayerEnv } from './helpers.js';

let env: LayerEnv | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const c of cleanups.splice(0)) await c();
});

const T = '2026-01-01T00:00:00.000Z';

/** Organiser requests (they carry tools) write one scene then finish; other requests get a persona body. */
function organiserModel(): (request: RecordedRequest) => ScriptedReply {
  let n = 0;
  return (request) => {
    if (!request.body?.tools) return { kind: 'text', text: 'Persona: organised and tidy.' };
    const messages = request.body.messages as Array<{ role: string }>;
    if (messages.at(-1)?.role === 'tool') return { kind: 'text', text: 'done' };
    n++;
    return {
      kind: 'tool-calls',
      calls: [{ name: 'write_scene', arguments: { file: `topic-${n}.md`, summary: `Topic ${n}`, content: `facts ${n}` } }],
    };
  };
}

async function remember(strata: Strata, count: number, from = 0): Promise<void> {
  for (let i = from; i < from + count; i++)
    await strata.remember({ text: `Fact number ${i}: the user likes item ${i}`, scope: 'agent:main' });
}

describe('autoOrganize (core)', () => {
  it('below the threshold nothing runs; at the threshold one run changes scenes and persona; then the interval holds', async () => {
    env = await layerEnv({ script: organiserModel() });
    const { home, strata, server, llm } = env;
    const paths = layerPaths({ home, agentId: 'main' });
    const base = { home, agentId: 'main', llm, memories: strata, everyMemories: 3 };

    await remember(strata, 2);
    expect(await autoOrganize(base)).toEqual({ agentId: 'main', status: 'not-due', reason: 'below-threshold', pending: 2 });
    expect(server.requests).toHaveLength(0);
    expect(await treeSnapshot(paths.scenesDir)).toEqual({});

    await remember(strata, 1, 2);
    const due = await autoOrganize(base);
    expect(due).toMatchObject({ status: 'organized', pending: 3, report: { memoriesProcessed: 3, created: ['topic-1.md'] } });
    expect(due.status === 'organized' && due.report.persona?.written).toBe(true);
    expect(await readFile(join(paths.scenesDir, 'topic-1.md'), 'utf8')).toContain('facts 1');
    expect(await readFile(paths.personaFile, 'utf8')).toContain('Persona: organised and tidy.');
    expect((await readCheckpoint(paths.checkpointFile)).totalProcessed).toBe(3);
    // Exactly one organiser run: one tool-calling turn, its closing turn, one persona request.
    expect(server.requests.map((r) => (r.body?.tools ? 'organiser' : 'persona'))).toEqual(['organiser', 'organiser', 'persona']);

    // Enough new memories again, but the last run was just now: the default 15-minute interval holds.
    await remember(strata, 3, 10);
    expect(await autoOrganize(base)).toMatchObject({ status: 'not-due', reason: 'too-soon', pending: 3 });
    const later = await autoOrganize({ ...base, now: () => new Date(Date.now() + 16 * 60_000) });
    expect(later).toMatchObject({ status: 'organized', report: { memoriesProcessed: 3 } });
  });

  it('a failing run is reported, not thrown, and leaves the scenes byte-identical', async () => {
    env = await layerEnv({
      script: [
        {
          kind: 'tool-calls',
          calls: [{ name: 'write_scene', arguments: { file: 'work.md', summary: 'Rewritten', content: 'clobbered' } }],
        },
        { kind: 'status', status: 500, body: { error: { message: 'model exploded' } } },
      ],
    });
    const { home, strata, llm } = env;
    const paths = layerPaths({ home, agentId: 'main' });
    await mkdir(paths.scenesDir, { recursive: true });
    await writeFile(
      join(paths.scenesDir, 'work.md'),
      serializeScene({ summary: 'Work', heat: 1, created: T, updated: T, body: '- works at Acme\n' }),
    );
    await syncSceneIndex(paths);
    const before = await treeSnapshot(paths.scenesDir);
    await remember(strata, 2);

    const result = await autoOrganize({ home, agentId: 'main', llm, memories: strata, everyMemories: 2 });
    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && (result.error as Error).message).toMatch(/500|model exploded/);
    expect(await treeSnapshot(paths.scenesDir)).toEqual(before);
    expect((await readCheckpoint(paths.checkpointFile)).lastRunAt).toBeNull();
  });

  it('skips (busy) while another run holds the organiser lock', async () => {
    env = await layerEnv({ script: organiserModel() });
    const { home, strata, server, llm } = env;
    await remember(strata, 2);
    const paths = layerPaths({ home, agentId: 'main' });
    const result = await withFileLock({ path: paths.lockFile }, () =>
      autoOrganize({ home, agentId: 'main', llm, memories: strata, everyMemories: 2 }),
    );
    expect(result).toEqual({ agentId: 'main', status: 'busy' });
    expect(server.requests).toHaveLength(0);
  });
});

/** A scripted model for the whole background path: extraction, then organiser and persona. */
function backgroundModel(): (request: RecordedRequest) => ScriptedReply {
  const organiser = organiserModel();
  return (request) => {
    if (schemaNameOf(request) === 'memories') {
      const ids = extractionInput(request).map((m) => m.id);
      return memoriesReply([
        { text: 'The user drinks oat-milk flat whites every morning', category: 'preference', scope: 'agent', sourceMessageIds: ids },
        { text: 'The user is training for the Berlin marathon in September', category: 'fact', scope: 'agent', sourceMessageIds: ids },
      ]);
    }
    if (schemaNameOf(request) !== undefined) return { kind: 'text', text: JSON.stringify({ decisions: [] }) };
    return organiser(request);
  };
}

async function backgroundStrata(server: ScriptedLlmServer, organizer: Record<string, unknown>): Promise<Strata> {
  const home = await tempDir();
  const strata = await Strata.open({
    home,
    overrides: {
      embedder: { provider: 'none' },
      llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted', jsonMode: 'json_schema', maxRetries: 0 },
      distill: { scheduler: { everyMessages: 1 } },
      layers: { organizer },
    },
  });
  cleanups.push(async () => {
    await strata.close();
    await removeDir(home);
  });
  return strata;
}

describe('automatic organising in the background worker (DistillScheduler path)', () => {
  const story = [
    msg({ session: 's1', role: 'user', content: 'Every morning I have an oat-milk flat white before my run.', at: '2026-11-01T07:00:00Z' }),
    msg({ session: 's1', role: 'user', content: 'I am training for the Berlin marathon in September.', at: '2026-11-01T07:01:00Z' }),
  ];

  it('distils, then organises the agent whose memories were stored, and stop() waits for it', async () => {
    const server = await startScriptedLlmServer({ script: backgroundModel() });
    cleanups.push(() => server.close());
    const strata = await backgroundStrata(server, { everyMemories: 2, minIntervalMs: 0 });
    await writeL0(strata.home, story);
    const seen: AutoOrganizeResult[] = [];
    const scheduler = strata.createDistillScheduler({ onOrganize: (r) => seen.push(r) });
    scheduler.notify({ messages: 2 });
    await scheduler.tick();
    await scheduler.stop();

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ agentId: 'main', status: 'organized', report: { memoriesProcessed: 2, created: ['topic-1.md'] } });
    const paths = layerPaths({ home: strata.home, agentId: 'main' });
    expect(await readFile(join(paths.scenesDir, 'topic-1.md'), 'utf8')).toContain('facts 1');
    expect(await readFile(paths.personaFile, 'utf8')).toContain('Persona: organised and tidy.');
  });

  it('does nothing below the threshold, or with layers.organizer.auto false', async () => {
    for (const organizer of [
      { everyMemories: 3, minIntervalMs: 0 },
      { auto: false, everyMemories: 1 },
    ]) {
      const server = await startScriptedLlmServer({ script: backgroundModel() });
      cleanups.push(() => server.close());
      const strata = await backgroundStrata(server, organizer);
      await writeL0(strata.home, story);
      const seen: AutoOrganizeResult[] = [];
      const scheduler = strata.createDistillScheduler({ onOrganize: (r) => seen.push(r) });
      scheduler.notify({ messages: 2 });
      await scheduler.tick();
      await scheduler.stop();
      expect(server.requests.map((r) => schemaNameOf(r) ?? (r.body?.tools ? 'organiser' : 'other'))).toEqual(['memories']);
      expect(seen).toEqual(organizer.auto === false ? [] : [{ agentId: 'main', status: 'not-due', reason: 'below-threshold', pending: 2 }]);
      await expect(readFile(layerPaths({ home: strata.home, agentId: 'main' }).personaFile, 'utf8')).rejects.toThrow(/ENOENT/);
    }
  });
});

describe('automatic organising in the Claude Code background process (`strata --agent <id> distill`)', () => {
  it('organises after distilling when due; --no-organize leaves the scenes alone', async () => {
    const server = await startScriptedLlmServer({ script: backgroundModel() });
    cleanups.push(() => server.close());
    const config = {
      embedder: { provider: 'none' },
      llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted', jsonMode: 'json_schema', maxRetries: 0 },
      layers: { organizer: { everyMemories: 2, minIntervalMs: 0 } },
    };
    const skipped = await tempHome(config);
    const organised = await tempHome(config);
    cleanups.push(
      () => removeDir(skipped),
      () => removeDir(organised),
    );
    const story = [
      msg({
        session: 'c1',
        role: 'user',
        content: 'Every morning I have an oat-milk flat white before my run.',
        at: '2026-11-01T07:00:00Z',
      }),
      msg({ session: 'c1', role: 'user', content: 'I am training for the Berlin marathon in September.', at: '2026-11-01T07:01:00Z' }),
    ];

    await writeL0(skipped, story);
    const off = await runCli(['--home', skipped, '--agent', 'main', 'distill', '--no-organize']);
    expect(off.code, off.stderr).toBe(0);
    expect(server.requests.some((r) => r.body?.tools)).toBe(false);
    expect(await treeSnapshot(layerPaths({ home: skipped, agentId: 'main' }).scenesDir)).toEqual({});

    await writeL0(organised, story);
    const on = await runCli(['--home', organised, '--agent', 'main', 'distill']);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stderr).toContain('organised 2 memories of main');
    expect(await readFile(join(layerPaths({ home: organised, agentId: 'main' }).scenesDir, 'topic-1.md'), 'utf8')).toContain('facts 1');
  });
});

/** An OpenClaw host whose one-turn session has ended (distillation, then the organiser, start in the background). */
async function openClawSessionEnded(options: { baseURL: string; sessionKey: string }): Promise<{ home: string; host: OpenClawHarness }> {
  const home = await tempHome({
    embedder: { provider: 'none' },
    llm: { provider: 'openai', baseURL: options.baseURL, model: 'scripted', jsonMode: 'json_schema', maxRetries: 0 },
    layers: { organizer: { everyMemories: 2, minIntervalMs: 0 } },
  });
  cleanups.push(() => removeDir(home));
  const host = new OpenClawHarness({ pluginConfig: { home, autoRecall: false, distill: { enabled: false } } }).load(createOpenClawPlugin());
  const session = host.session({ agentId: 'main', sessionKey: options.sessionKey });
  await session.turn('Every morning I have an oat-milk flat white before my run.', { reply: 'Noted.' });
  await session.end('idle');
  return { home, host };
}

describe('automatic organising in the OpenClaw plugin (distillation at session end)', () => {
  it('stopping the service aborts an organiser run in progress and leaves the scenes as they were', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const model = backgroundModel();
    // The organiser's first turn hangs until the service is stopped.
    const server = await startScriptedLlmServer({
      script: async (request) => {
        if (request.body?.tools) await gate;
        return model(request);
      },
    });
    cleanups.push(async () => {
      release();
      await server.close();
    });
    const { home, host } = await openClawSessionEnded({ baseURL: server.baseURL, sessionKey: 's-abort' });
    await vi.waitFor(() => expect(server.requests.some((r) => r.body?.tools)).toBe(true), { timeout: 20_000, interval: 50 });
    await host.stopServices();
    expect(host.logs.some((l) => l.level === 'warn' && /organiser for main failed/.test(l.message))).toBe(true);
    expect(await treeSnapshot(layerPaths({ home, agentId: 'main' }).scenesDir)).toEqual({});
  });

  it('organises the agent after session_end distils enough memories, and logs it', async () => {
    const server = await startScriptedLlmServer({ script: backgroundModel() });
    cleanups.push(() => server.close());
    const { home, host } = await openClawSessionEnded({ baseURL: server.baseURL, sessionKey: 's-organise' });
    // session_end starts distillation and then the organiser in the background (stopping would abort it).
    await vi.waitFor(() => expect(host.logs.some((l) => l.level === 'info' && /organised 2 memories of main/.test(l.message))).toBe(true), {
      timeout: 20_000,
      interval: 50,
    });
    await host.stopServices();
    const paths = layerPaths({ home, agentId: 'main' });
    expect(await readFile(join(paths.scenesDir, 'topic-1.md'), 'utf8')).toContain('facts 1');
    expect(await readFile(paths.personaFile, 'utf8')).toContain('Persona: organised and tidy.');
  });
});
