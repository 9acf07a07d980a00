import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  layerPaths,
  NAV_OPEN,
  organizeScenes,
  readCheckpoint,
  readSceneIndex,
  serializeScene,
  syncSceneIndex,
} from '../../src/core/layers/index.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-llm-server.js';
import { layerEnv, messagesOf, treeSnapshot, type LayerEnv } from './helpers.js';

let env: LayerEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const T = '2026-01-01T00:00:00.000Z';
const scene = (summary: string, body: string, heat = 1) => serializeScene({ summary, heat, created: T, updated: T, body });

async function seedScenes(home: string, files: Record<string, string>): Promise<ReturnType<typeof layerPaths>> {
  const paths = layerPaths({ home, agentId: 'main' });
  await mkdir(paths.scenesDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(paths.scenesDir, name), content);
  await syncSceneIndex(paths);
  return paths;
}

/** Organiser requests (they carry tools) write one scene then finish; persona requests get a body. */
function organiserScript(): (request: RecordedRequest) => ScriptedReply {
  let n = 0;
  return (request) => {
    if (!request.body?.tools) return { kind: 'text', text: 'Persona: likes tidy scenes.' };
    const messages = request.body.messages as Array<{ role: string }>;
    if (messages.at(-1)?.role === 'tool') return { kind: 'text', text: 'done' };
    n++;
    return {
      kind: 'tool-calls',
      calls: [{ name: 'write_scene', arguments: { file: `topic-${n}.md`, summary: `Topic ${n}`, content: `facts ${n}` } }],
      delayMs: 50,
    };
  };
}

describe('organiser runs', () => {
  it('cleans up, normalises names, syncs the index, updates navigation and reports changes', async () => {
    env = await layerEnv({
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'write_scene', arguments: { file: 'Daily Rhythm!.md', summary: 'Daily routine', content: '- up at 6' } },
            { name: 'edit_scene', arguments: { file: 'work.md', old_text: 'Acme', new_text: 'Globex', summary: 'Work at Globex' } },
            { name: 'write_scene', arguments: { file: 'old.md', content: '[DELETED]' } },
          ],
        },
        { kind: 'text', text: 'Merged and updated. [PERSONA_UPDATE_REQUEST] changed jobs [/PERSONA_UPDATE_REQUEST]' },
        { kind: 'text', text: 'The user works at Globex and gets up at 6.' },
      ],
    });
    const { home, strata, server, llm } = env;
    const paths = await seedScenes(home, {
      'work.md': scene('Work at Acme', '- works at Acme\n'),
      'old.md': scene('Old', 'stale\n'),
      'header-only.md': scene('Nothing', '\n'),
      'empty.md': '',
    });
    await mkdir(join(home, 'persona'), { recursive: true });
    await writeFile(paths.personaFile, 'Old persona body.\n');
    await strata.remember({ text: 'User moved from Acme to Globex', scope: 'agent:main' });

    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata, personaEveryN: 0 });

    expect(report).toMatchObject({
      memoriesProcessed: 1,
      created: ['daily-rhythm.md'],
      updated: ['work.md'],
      renamed: [{ from: 'Daily Rhythm!.md', to: 'daily-rhythm.md' }],
      sceneCount: 2,
    });
    expect(report.deleted.sort()).toEqual(['empty.md', 'header-only.md', 'old.md']);
    expect(report.personaUpdateRequest).toBe('changed jobs');
    expect((await readdir(paths.scenesDir)).sort()).toEqual(['.index.json', 'daily-rhythm.md', 'work.md']);
    const index = await readSceneIndex(paths);
    expect(index.map((s) => [s.filename, s.summary, s.heat])).toEqual([
      ['work.md', 'Work at Globex', 2],
      ['daily-rhythm.md', 'Daily routine', 1],
    ]);
    expect(await readFile(join(paths.scenesDir, 'work.md'), 'utf8')).toContain('- works at Globex');
    // The organiser saw the new memory; the persona was regenerated on request, old one backed up.
    expect(messagesOf(server, 0)[1]?.content).toContain('User moved from Acme to Globex');
    const persona = await readFile(paths.personaFile, 'utf8');
    expect(persona).toMatch(/^The user works at Globex/);
    expect(persona).toContain(NAV_OPEN);
    expect(persona).toContain('(../scenes/main/daily-rhythm.md)');
    const backups = await readdir(paths.personaBackupsDir);
    // The backup is the persona as it stood after this run's navigation refresh.
    expect(backups).toHaveLength(1);
    expect(await readFile(join(paths.personaBackupsDir, backups[0]!), 'utf8')).toMatch(
      /^Old persona body\.\n\n<!-- strata:scene-navigation -->/,
    );
    expect(await readCheckpoint(paths.checkpointFile)).toMatchObject({ totalProcessed: 1, sincePersona: 0, personaRequest: null });
  });

  it('processes only memories after the checkpoint, and skips the LLM when there are none', async () => {
    env = await layerEnv({ script: organiserScript() });
    const { home, strata, server, llm } = env;
    await strata.remember({ text: 'first fact about boats', scope: 'agent:main' });
    await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    const afterFirst = server.requests.length;
    expect((await organizeScenes({ home, agentId: 'main', llm, memories: strata })).skipped).toBe('no-new-memories');
    expect(server.requests.length).toBe(afterFirst);
    await strata.remember({ text: 'second fact about trains', scope: 'agent:main' });
    await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    const prompt = messagesOf(server, afterFirst)[1]?.content ?? '';
    expect(prompt).toContain('second fact about trains');
    expect(prompt).not.toContain('first fact about boats');
  });

  it('restores the scenes folder byte for byte when the run fails midway', async () => {
    env = await layerEnv({
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'write_scene', arguments: { file: 'work.md', summary: 'Rewritten', content: 'everything replaced' } },
            { name: 'write_scene', arguments: { file: 'new.md', summary: 'New', content: 'new scene' } },
            { name: 'write_scene', arguments: { file: 'keep.md', content: '[DELETED]' } },
          ],
        },
        // The script ends: the next call fails with a non-retryable 418.
      ],
    });
    const { home, strata, llm } = env;
    const paths = await seedScenes(home, {
      'work.md': scene('Work', 'body\r\nwith CRLF\n'),
      'keep.md': scene('Keep', 'keep me\n', 4),
      'Odd Name.md': 'no header\n',
    });
    await writeFile(join(home, 'target.md'), 'x');
    await symlink(join(home, 'target.md'), join(paths.scenesDir, 'link.md'));
    await strata.remember({ text: 'anything', scope: 'agent:main' });
    const before = await treeSnapshot(paths.scenesDir);

    await expect(organizeScenes({ home, agentId: 'main', llm, memories: strata })).rejects.toThrow();
    expect(await treeSnapshot(paths.scenesDir)).toEqual(before);
    expect((await readCheckpoint(paths.checkpointFile)).totalProcessed).toBe(0);
  });

  it('restores the folder when the model exceeds its turn budget', async () => {
    env = await layerEnv({
      script: () => ({
        kind: 'tool-calls',
        calls: [{ name: 'write_scene', arguments: { file: 'loop.md', summary: 'Loop', content: `t ${Math.random()}` } }],
      }),
    });
    const { home, strata, llm } = env;
    const paths = await seedScenes(home, { 'a.md': scene('A', 'a\n') });
    await strata.remember({ text: 'anything', scope: 'agent:main' });
    const before = await treeSnapshot(paths.scenesDir);
    const error = await organizeScenes({ home, agentId: 'main', llm, memories: strata, maxTurns: 3 }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('TIMEOUT');
    expect(await treeSnapshot(paths.scenesDir)).toEqual(before);
  });

  it('serialises two runs of the same agent', async () => {
    env = await layerEnv({ script: organiserScript() });
    const { home, strata, server, llm } = env;
    for (const text of ['likes tea', 'plays chess', 'lives in Lyon']) await strata.remember({ text, scope: 'agent:main' });
    const reports = await Promise.all([1, 2].map(() => organizeScenes({ home, agentId: 'main', llm, memories: strata })));
    // One run organised all three memories; the other waited, then found nothing new.
    expect(reports.map((r) => r.memoriesProcessed).sort()).toEqual([0, 3]);
    expect(reports.filter((r) => r.skipped === 'no-new-memories')).toHaveLength(1);
    expect(server.maxInFlight).toBe(1);
    expect(server.requests).toHaveLength(3); // two organiser turns + the first persona
  });

  it('shows the capacity counter and tiered guidance at the thresholds', async () => {
    env = await layerEnv({ script: organiserScript() });
    const { home, strata, server, llm } = env;
    const files: Record<string, string> = {};
    for (let i = 1; i <= 3; i++) files[`s${i}.md`] = scene(`S${i}`, `s${i}\n`);
    await seedScenes(home, files);
    const prompts: string[] = [];
    for (const note of ['one', 'two']) {
      const start = server.requests.length;
      await strata.remember({ text: `note ${note}`, scope: 'agent:main' });
      await organizeScenes({ home, agentId: 'main', llm, memories: strata, maxScenes: 4, personaEveryN: 0 });
      prompts.push(messagesOf(server, start)[1]?.content ?? '');
    }
    expect(prompts[0]).toContain('Scenes: 3 / 4. ONE BELOW THE LIMIT');
    expect(prompts[1]).toContain('Scenes: 4 / 4. AT THE LIMIT');
    expect(prompts[1]).toContain('s1.md (heat 1');
  });

  it('never writes a persona without a body', async () => {
    env = await layerEnv({
      script: [
        { kind: 'tool-calls', calls: [{ name: 'write_scene', arguments: { file: 'a.md', summary: 'A', content: 'a' } }] },
        { kind: 'text', text: 'done' },
        { kind: 'text', text: '```markdown\n\n```' },
      ],
    });
    const { home, strata, llm } = env;
    await strata.remember({ text: 'anything', scope: 'agent:main' });
    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    expect(report.persona).toMatchObject({ written: false });
    expect(report.navigationUpdated).toBe(false);
    await expect(readFile(layerPaths({ home, agentId: 'main' }).personaFile, 'utf8')).rejects.toThrow();
  });
});
