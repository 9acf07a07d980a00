import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layerPaths, organizeScenes, readSceneIndex } from '../../src/core/layers/index.js';
import { layerEnv, messagesOf, type LayerEnv } from './helpers.js';

let env: LayerEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('organiser sandbox', () => {
  it('refuses every escape attempt with a tool error and still completes the run', async () => {
    const big = 'x'.repeat(50 * 1024 * 1024);
    env = await layerEnv({
      script: [
        {
          kind: 'tool-calls',
          calls: [
            { name: 'write_scene', arguments: { file: '../persona.md', summary: 'p', content: 'pwned' } },
            { name: 'read_scene', arguments: { file: '../../persona/main.md' } },
            { name: 'write_scene', arguments: { file: '/tmp/strata-escape.md', summary: 'p', content: 'pwned' } },
            { name: 'write_scene', arguments: { file: 'link.md', summary: 'p', content: 'pwned' } },
            { name: 'read_scene', arguments: { file: 'link.md' } },
            { name: 'edit_scene', arguments: { file: 'link.md', old_text: 'secret', new_text: 'pwned' } },
            { name: 'read_scene', arguments: { file: '.index.json' } },
            { name: 'write_scene', arguments: { file: '.hidden.md', summary: 'p', content: 'pwned' } },
            { name: 'write_scene', arguments: { file: 'notes.txt', summary: 'p', content: 'pwned' } },
            { name: 'write_scene', arguments: { file: 'sub/dir.md', summary: 'p', content: 'pwned' } },
            { name: 'write_scene', arguments: { file: 'huge.md', summary: 'p', content: big } },
            { name: 'write_scene', arguments: { file: 'ok.md', summary: 'The one legal write', content: '# ok\n- fine' } },
          ],
        },
        { kind: 'text', text: 'done' },
        { kind: 'text', text: 'Persona body.' },
      ],
    });
    const { home, strata, server, llm } = env;
    const paths = layerPaths({ home, agentId: 'main' });
    await mkdir(paths.scenesDir, { recursive: true });
    await mkdir(join(home, 'persona'), { recursive: true });
    await writeFile(join(home, 'persona.md'), 'original persona');
    await writeFile(join(home, 'outside.md'), 'secret outside');
    await symlink(join(home, 'outside.md'), join(paths.scenesDir, 'link.md'));
    await strata.remember({ text: 'User runs a home lab', scope: 'agent:main' });

    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata });

    expect(report.refusedToolCalls).toBe(11);
    expect(report.created).toEqual(['ok.md']);
    const toolReplies = messagesOf(server, 1)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content ?? '');
    expect(toolReplies).toHaveLength(12);
    expect(toolReplies.slice(0, 11).every((c) => c.startsWith('refused:'))).toBe(true);
    expect(toolReplies[10]).toMatch(/too large/);
    expect(toolReplies[11]).toMatch(/^ok: ok\.md/);
    // The 50 MB argument is not echoed back to the model.
    expect(server.requests[1]!.rawBody.length).toBeLessThan(1_000_000);
    expect(await readFile(join(home, 'persona.md'), 'utf8')).toBe('original persona');
    expect(await readFile(join(home, 'outside.md'), 'utf8')).toBe('secret outside');
    await expect(readFile('/tmp/strata-escape.md', 'utf8')).rejects.toThrow();
    await expect(readFile(join(paths.scenesDir, 'notes.txt'), 'utf8')).rejects.toThrow();
    expect((await readSceneIndex(paths)).map((s) => s.filename)).toEqual(['ok.md']);
  }, 30_000);
});
