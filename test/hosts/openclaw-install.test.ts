import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installOpenClaw } from '../../src/hosts/openclaw/install.js';
import { REPO_ROOT, runCli } from '../support/run-cli.js';

const EXISTING = `// my OpenClaw config
{
  agents: { defaults: { model: 'anthropic/claude-sonnet' } },
  plugins: {
    allow: ['memory-lancedb', 'voice-call'],
    slots: { memory: 'memory-lancedb' },
    entries: {
      'memory-lancedb': { enabled: true, config: { autoRecall: true } },
      strata: { config: { recallLimit: 3 }, hooks: { timeoutMs: 30000 } },
    },
  },
}
`;

describe('strata install openclaw', () => {
  let dir: string;
  let configPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-openclaw-'));
    configPath = join(dir, 'openclaw.json');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('merges slot, load path, entry and hook permissions into a JSON5 config, keeping the rest', async () => {
    await writeFile(configPath, EXISTING);
    const plan = await installOpenClaw({ configPath, pluginPath: '/opt/strata/openclaw-plugin', home: '/data/strata' });
    expect(plan).toMatchObject({ action: 'update', applied: false, previousMemoryPlugin: 'memory-lancedb' });
    expect(await readFile(configPath, 'utf8')).toBe(EXISTING); // printing writes nothing

    const done = await installOpenClaw({ configPath, pluginPath: '/opt/strata/openclaw-plugin', home: '/data/strata', apply: true, now: new Date('2026-11-21T12:00:00Z') });
    expect(done.applied).toBe(true);
    expect(await readFile(done.backup!, 'utf8')).toBe(EXISTING);
    const written = JSON5.parse(await readFile(configPath, 'utf8')) as { agents: unknown; plugins: Record<string, unknown> };
    expect(written.agents).toEqual({ defaults: { model: 'anthropic/claude-sonnet' } });
    expect(written.plugins).toEqual({
      allow: ['memory-lancedb', 'voice-call', 'strata'],
      slots: { memory: 'strata' },
      load: { paths: ['/opt/strata/openclaw-plugin'] },
      entries: {
        'memory-lancedb': { enabled: true, config: { autoRecall: true } },
        strata: {
          enabled: true,
          config: { recallLimit: 3, home: '/data/strata' },
          hooks: { timeoutMs: 30000, allowConversationAccess: true, allowPromptInjection: true },
        },
      },
    });

    // Idempotent: a second apply changes nothing and makes no new backup.
    const again = await installOpenClaw({ configPath, pluginPath: '/opt/strata/openclaw-plugin', home: '/data/strata', apply: true });
    expect(again).toMatchObject({ action: 'unchanged', applied: false });
    expect((await readdir(dir)).filter((f) => f.includes('strata-backup'))).toHaveLength(1);
  });

  it('refuses a config it cannot parse, leaving it untouched', async () => {
    await writeFile(configPath, '{ plugins: [ }');
    await expect(installOpenClaw({ configPath, pluginPath: '/p', apply: true })).rejects.toThrow(/not valid JSON5/);
    expect(await readFile(configPath, 'utf8')).toBe('{ plugins: [ }');
  });

  it('prints by default and applies with --apply through the CLI, idempotently', async () => {
    const printed = await runCli(['install', 'openclaw', '--config', configPath]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toContain(`would create: ${configPath}`);
    expect(printed.stdout).toContain(join(REPO_ROOT, 'openclaw-plugin'));
    await expect(readFile(configPath, 'utf8')).rejects.toThrow(/ENOENT/);

    const applied = await runCli(['install', 'openclaw', '--config', configPath, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`created: ${configPath}`);
    const config = JSON5.parse(await readFile(configPath, 'utf8')) as { plugins: { slots: { memory: string }; load: { paths: string[] } } };
    expect(config.plugins.slots.memory).toBe('strata');
    expect(config.plugins.load.paths).toEqual([join(REPO_ROOT, 'openclaw-plugin')]);

    const again = await runCli(['install', 'openclaw', '--config', configPath, '--apply', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', applied: false });
  });
});
