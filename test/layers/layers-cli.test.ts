import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';

let home: string | undefined;
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
  home = undefined;
  server = undefined;
});

describe('strata organize / scenes / persona / context', () => {
  it('runs one organiser pass and shows the result', async () => {
    server = await startScriptedLlmServer({
      script: [
        {
          kind: 'tool-calls',
          calls: [{ name: 'write_scene', arguments: { file: 'coffee.md', summary: 'Coffee habits', content: '- dark roast, no sugar' } }],
        },
        { kind: 'text', text: 'done' },
        { kind: 'text', text: 'A coffee lover.' },
      ],
    });
    home = await tempHome({ embedder: { provider: 'none' }, llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted' } });
    const run = (...args: string[]) => runCli(['--home', home!, '--agent', 'main', ...args], { env: { OPENAI_API_KEY: 'k' } });

    expect((await run('add', 'The user drinks dark roast coffee')).code).toBe(0);
    const organize = await run('organize');
    expect(organize.stderr).toBe('');
    expect(organize.stdout).toContain('1 memories organised');
    expect(organize.stdout).toContain('created: coffee.md');

    const list = await run('--json', 'scenes');
    expect(JSON.parse(list.stdout).scenes.map((s: { name: string }) => s.name)).toEqual(['coffee']);
    expect((await run('scenes', 'show', 'coffee')).stdout).toContain('- dark roast, no sugar');
    expect((await run('scenes', 'show', '../../config.json')).code).toBe(1);
    expect((await run('persona')).stdout).toMatch(/^A coffee lover\./);
    expect(await readFile(join(home, 'persona', 'main.md'), 'utf8')).toContain('coffee.md');

    const context = await run('context', '--budget', '300');
    expect(context.code).toBe(0);
    expect(context.stdout).toContain('<persona>');
    expect(context.stdout).toContain('coffee.md (heat 1): Coffee habits');
    expect(context.stdout).toContain('dark roast coffee');
  }, 60_000);
});
