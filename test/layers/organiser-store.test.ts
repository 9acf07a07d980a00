import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layerPaths, organizeScenes, readSceneIndex } from '../../src/core/layers/index.js';
import { FileLayerStore } from '../../src/core/layers/file-store.js';
import { StrataError } from '../../src/errors/index.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-llm-server.js';
import { layerEnv, type LayerEnv } from './helpers.js';

let env: LayerEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/**
 * Each organiser run writes `run-<n>.md`; before answering a run's first turn, `meanwhile` may
 * commit to the store as another process would (it gets the run number).
 */
function racingScript(meanwhile: (run: number) => Promise<void>): (request: RecordedRequest) => Promise<ScriptedReply> {
  let run = 0;
  return async (request) => {
    if (!request.body?.tools) return { kind: 'text', text: 'Persona body.' };
    const messages = request.body.messages as Array<{ role: string }>;
    if (messages.at(-1)?.role === 'tool') return { kind: 'text', text: 'done' };
    run++;
    await meanwhile(run);
    return {
      kind: 'tool-calls',
      calls: [{ name: 'write_scene', arguments: { file: `run-${run}.md`, summary: `Run ${run}`, content: `- run ${run}` } }],
    };
  };
}

describe('organiser on a layer store', () => {
  it('a commit landing during the run is detected; the run is redone on the newer version and both results stay', async () => {
    env = await layerEnv({
      script: racingScript(async (run) => {
        if (run !== 1) return;
        const store = new FileLayerStore({ home: env!.home });
        const { version } = await store.read({ agentId: 'main' });
        await store.commit({
          agentId: 'main',
          changes: [{ name: 'scenes/other.md', text: '# From the other machine\n' }],
          expectedVersion: version,
        });
      }),
    });
    const store = new FileLayerStore({ home: env.home });
    await env.strata.remember({ text: 'User runs a home lab', scope: 'agent:main' });
    const report = await organizeScenes({ home: env.home, agentId: 'main', llm: env.llm, memories: env.strata, layerStore: store });
    expect(report).toMatchObject({ conflicts: 1, version: 2, created: ['run-2.md'], memoriesProcessed: 1 });
    const paths = layerPaths({ home: env.home, agentId: 'main' });
    // The other machine's scene is in the redone run's index and navigation; the discarded first attempt left nothing.
    expect((await readSceneIndex(paths)).map((s) => s.filename).sort()).toEqual(['other.md', 'run-2.md']);
    expect(Object.keys((await store.read({ agentId: 'main' })).files).sort()).toEqual([
      'checkpoint.json',
      'persona.md',
      'scenes/.index.json',
      'scenes/other.md',
      'scenes/run-2.md',
    ]);
    expect(await readFile(paths.personaFile, 'utf8')).toContain('other.md');
  });

  it('when every attempt conflicts, fails with VERSION_CONFLICT after maxAttempts and writes nothing of its own', async () => {
    env = await layerEnv({
      script: racingScript(async (run) => {
        const store = new FileLayerStore({ home: env!.home });
        const { version } = await store.read({ agentId: 'main' });
        await store.commit({
          agentId: 'main',
          changes: [{ name: `scenes/other-${run}.md`, text: `other ${run}\n` }],
          expectedVersion: version,
        });
      }),
    });
    const store = new FileLayerStore({ home: env.home });
    await env.strata.remember({ text: 'User runs a home lab', scope: 'agent:main' });
    const error = await organizeScenes({
      home: env.home,
      agentId: 'main',
      llm: env.llm,
      memories: env.strata,
      layerStore: store,
      maxAttempts: 2,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(StrataError.isInstance(error) && error.code).toBe('VERSION_CONFLICT');
    const { version, files } = await store.read({ agentId: 'main' });
    expect(version).toBe(2);
    expect(Object.keys(files).sort()).toEqual(['scenes/other-1.md', 'scenes/other-2.md']);
    // No working folder is left behind.
    expect((await readdir(join(env.home, 'layers', 'main'))).filter((n) => n.startsWith('.work-'))).toEqual([]);
  });
});
