/**
 * One test per attack on the organiser's sandbox, each through a real organiser run against a
 * scripted model (or the sandbox itself where a run adds nothing). Attempts and escapes are
 * tallied; an escape is any byte written or read outside the rules.
 */
import { execFileSync } from 'node:child_process';
import { link, lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSceneSandbox, layerPaths, organizeScenes, readPersona, readSceneIndex } from '../../src/core/layers/index.js';
import type { LlmToolCall } from '../../src/spec/llm.js';
import { layerEnv, type LayerEnv } from '../layers/helpers.js';
import type { ScriptedReply } from '../support/scripted-llm-server.js';

let env: LayerEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});
const tally = { attempts: 0, escapes: 0 };
afterAll(() => console.log(`sandbox attacks: ${tally.attempts} attempts, ${tally.escapes} escapes`));
const attempt = (escaped: boolean) => {
  tally.attempts++;
  if (escaped) tally.escapes++;
};

const write = (file: string, content: string, summary = 's'): { name: string; arguments: Record<string, unknown> } => ({
  name: 'write_scene',
  arguments: { file, summary, content },
});

async function setup(script: ScriptedReply[]) {
  env = await layerEnv({ script });
  const paths = layerPaths({ home: env.home, agentId: 'main' });
  await mkdir(paths.scenesDir, { recursive: true });
  await env.strata.remember({ text: 'User runs a home lab with three servers', scope: 'agent:main' });
  return { ...env, paths };
}

describe('organiser sandbox attacks', () => {
  it('500 write_scene calls in one turn: at most 16 run, the scene count and byte budget hold', async () => {
    // 3 KB each keeps the echoed request small enough for the scripted server; the count is what is attacked.
    const calls = Array.from({ length: 500 }, (_, i) => write(`s${i}.md`, `# scene ${i}\n${'y'.repeat(3_000)}`));
    const { home, llm, strata, paths } = await setup([
      { kind: 'tool-calls', calls },
      { kind: 'tool-calls', calls },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: 'Persona.' },
    ]);
    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata, maxScenes: 15 });
    const files = (await readdir(paths.scenesDir)).filter((f) => f.endsWith('.md'));
    let bytes = 0;
    for (const f of files) bytes += (await lstat(join(paths.scenesDir, f))).size;
    attempt(files.length > 15);
    attempt(bytes > 15 * 64 * 1024);
    expect(files.length).toBeLessThanOrEqual(15);
    expect(bytes).toBeLessThanOrEqual(15 * 64 * 1024);
    expect(report.toolCalls).toBe(1000);
    expect(report.refusedToolCalls).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('a pre-planted hard link is never read through', async () => {
    const { home, paths } = await setup([]);
    await writeFile(join(home, 'outside-secret.txt'), 'TOP SECRET outside the sandbox');
    await link(join(home, 'outside-secret.txt'), join(paths.scenesDir, 'planted.md'));
    const sandbox = createSceneSandbox({ scenesDir: paths.scenesDir });
    const read = await sandbox.execute({ id: '1', name: 'read_scene', arguments: { file: 'planted.md' } } as LlmToolCall);
    const edit = await sandbox.execute({
      id: '2',
      name: 'edit_scene',
      arguments: { file: 'planted.md', old_text: 'TOP', new_text: 'X' },
    } as LlmToolCall);
    const list = await sandbox.execute({ id: '3', name: 'list_scenes', arguments: {} } as LlmToolCall);
    const index = await readSceneIndex(paths);
    attempt(read.content.includes('TOP SECRET'));
    attempt(!edit.isError || (await readFile(join(home, 'outside-secret.txt'), 'utf8')) !== 'TOP SECRET outside the sandbox');
    attempt(list.content.includes('TOP SECRET') || JSON.stringify(index).includes('TOP SECRET'));
    expect(read.isError).toBe(true);
    expect(read.content).toMatch(/hard-linked/);
    expect(edit.isError).toBe(true);
    expect(JSON.stringify(index)).not.toContain('TOP SECRET');
  });

  it('a symlinked agent folder is never written through', async () => {
    const { home, llm, strata, paths } = await setup([
      { kind: 'tool-calls', calls: [write('new.md', '# pwned')] },
      { kind: 'text', text: 'done' },
    ]);
    const outside = join(home, 'elsewhere');
    await mkdir(outside);
    await rm(paths.scenesDir, { recursive: true });
    await symlink(outside, paths.scenesDir);
    const run = await organizeScenes({ home, agentId: 'main', llm, memories: strata }).then(
      () => 'ran',
      (e: Error) => e.message,
    );
    const sandbox = createSceneSandbox({ scenesDir: paths.scenesDir });
    const direct = await sandbox.execute({
      id: '1',
      name: 'write_scene',
      arguments: { file: 'x.md', summary: 's', content: 'pwned' },
    } as LlmToolCall);
    const written = await readdir(outside);
    attempt(written.length > 0);
    attempt(!direct.isError);
    expect(written).toEqual([]);
    expect(run).toMatch(/not a real directory/);
    expect(direct.content).toMatch(/not a real directory/);
  });

  it('a symlinked persona file is never followed, read or written through', async () => {
    const { home, llm, strata, paths } = await setup([
      { kind: 'tool-calls', calls: [write('lab.md', '# Home lab\n- three servers', 'Home lab')] },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: 'A fresh persona body.' },
    ]);
    await mkdir(join(home, 'persona'), { recursive: true });
    await writeFile(join(home, 'target.txt'), 'do not touch: private notes');
    await symlink(join(home, 'target.txt'), paths.personaFile);
    expect(await readPersona(paths)).toBeUndefined();
    await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    const target = await readFile(join(home, 'target.txt'), 'utf8');
    attempt(target !== 'do not touch: private notes');
    expect(target).toBe('do not touch: private notes');
    expect((await lstat(paths.personaFile)).isSymbolicLink()).toBe(false); // replaced by a real file
    const backups = await readdir(paths.personaBackupsDir).catch(() => [] as string[]);
    for (const b of backups) {
      const copied = await readFile(join(paths.personaBackupsDir, b), 'utf8');
      attempt(copied.includes('private notes'));
      expect(copied).not.toContain('private notes');
    }
  });

  it('a FIFO in the scenes folder is refused without aborting the backup or the run', async () => {
    const { home, llm, strata, paths } = await setup([
      {
        kind: 'tool-calls',
        calls: [
          { name: 'read_scene', arguments: { file: 'pipe.md' } },
          write('pipe.md', 'overwrite the fifo'),
          write('ok.md', '# ok', 'ok'),
        ],
      },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: 'Persona.' },
    ]);
    execFileSync('mkfifo', [join(paths.scenesDir, 'pipe.md')]);
    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    attempt(report.created.includes('pipe.md'));
    expect(report.created).toEqual(['ok.md']);
    expect(report.refusedToolCalls).toBe(2);
    expect((await lstat(join(paths.scenesDir, 'pipe.md'))).isFIFO()).toBe(true);
  }, 30_000);

  it('a 125-character CJK name is refused by its byte length; the run goes on', async () => {
    const cjk = `${'記'.repeat(122)}.md`; // 125 characters, 369 bytes
    const { home, llm, strata, paths } = await setup([
      { kind: 'tool-calls', calls: [write(cjk, '# cjk'), write('fine.md', '# fine', 'fine')] },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: 'Persona.' },
    ]);
    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    attempt(report.created.some((f) => f.includes('記')));
    expect(report.created).toEqual(['fine.md']);
    expect(report.refusedToolCalls).toBe(1);
    expect(await readdir(paths.scenesDir)).toContain('fine.md');
  });

  it('a failing tool call fails that call, not the run', async () => {
    const { home, llm, strata, paths } = await setup([
      {
        kind: 'tool-calls',
        calls: [
          write('dir.md', 'into a directory'),
          { name: 'read_scene', arguments: { file: 'missing.md' } },
          write('kept.md', '# kept', 'kept'),
        ],
      },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: 'Persona.' },
    ]);
    await mkdir(join(paths.scenesDir, 'dir.md'));
    const report = await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    attempt(false);
    expect(report.created).toEqual(['kept.md']);
    expect(report.refusedToolCalls).toBe(2);
  });

  it('secrets the model writes into scenes are redacted', async () => {
    const key = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const { home, llm, strata, paths } = await setup([
      { kind: 'tool-calls', calls: [write('keys.md', `# Keys\n- GitHub token ${key}`, `token ${key}`)] },
      { kind: 'text', text: 'done' },
      { kind: 'text', text: `Persona with ${key}` },
    ]);
    await organizeScenes({ home, agentId: 'main', llm, memories: strata });
    const scene = await readFile(join(paths.scenesDir, 'keys.md'), 'utf8');
    const persona = await readFile(paths.personaFile, 'utf8');
    attempt(scene.includes(key) || persona.includes(key));
    expect(scene).not.toContain(key);
    expect(persona).not.toContain(key);
  });
});
