import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSON5 from 'json5';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installOpenClaw, uninstallOpenClaw } from '../../src/hosts/openclaw/install.js';
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

    const done = await installOpenClaw({
      configPath,
      pluginPath: '/opt/strata/openclaw-plugin',
      home: '/data/strata',
      apply: true,
      now: new Date('2026-11-21T12:00:00Z'),
    });
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
        // A loaded memory-core (its dreaming sidecar) would offer memory_search/memory_get beside Strata's tools.
        'memory-core': { enabled: false },
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

describe('strata uninstall openclaw', () => {
  let dir: string;
  let configPath: string;
  const plugin = '/opt/strata/openclaw-plugin';
  const parsed = async () => JSON5.parse(await readFile(configPath, 'utf8')) as unknown;
  const backups = async () => (await readdir(dir)).filter((f) => f.includes('strata-backup'));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-openclaw-'));
    configPath = join(dir, 'openclaw.json');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('install then uninstall gives back the original config (slot owner, existing entry), with a backup; twice is a no-op', async () => {
    await writeFile(configPath, EXISTING);
    const original = JSON5.parse(EXISTING) as unknown;
    await installOpenClaw({ configPath, pluginPath: plugin, home: '/data/strata', apply: true });

    const plan = await uninstallOpenClaw({ configPath, pluginPath: plugin });
    expect(plan).toMatchObject({ action: 'update', applied: false, basis: 'record', restoredMemoryPlugin: 'memory-lancedb' });
    expect(plan.config).toEqual(original);
    const installed = await readFile(configPath, 'utf8');

    const done = await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true, now: new Date('2026-11-22T00:00:00Z') });
    expect(done).toMatchObject({ action: 'update', applied: true });
    expect(await parsed()).toEqual(original);
    expect(await readFile(done.backup!, 'utf8')).toBe(installed);
    expect(await backups()).toHaveLength(2); // install's and uninstall's

    const after = await readFile(configPath, 'utf8');
    const again = await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(again).toMatchObject({ action: 'unchanged', applied: false });
    expect(await readFile(configPath, 'utf8')).toBe(after);
    expect(await backups()).toHaveLength(2);
  });

  it('removes what install created from scratch, keeps what the user changed since, and leaves unrelated settings', async () => {
    await writeFile(configPath, JSON.stringify({ gateway: { port: 18789 }, plugins: { entries: { 'voice-call': { enabled: true } } } }));
    const original = await parsed();
    await installOpenClaw({ configPath, pluginPath: plugin, apply: true });
    // After install the user adds their own setting to Strata's entry and another load path.
    const edited = (await parsed()) as { plugins: { load: { paths: string[] }; entries: { strata: { config: Record<string, unknown> } } } };
    edited.plugins.load.paths.push('/opt/other-plugin');
    edited.plugins.entries.strata.config.recallLimit = 7;
    await writeFile(configPath, JSON.stringify(edited));

    await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(await parsed()).toEqual({
      ...(original as object),
      plugins: {
        entries: { 'voice-call': { enabled: true }, strata: { config: { recallLimit: 7 } } },
        load: { paths: ['/opt/other-plugin'] },
      },
    });
  });

  it('turns memory-core off only when the user left it unset, and uninstall puts it back', async () => {
    const mine = { plugins: { entries: { 'memory-core': { enabled: true, config: { dreaming: { frequency: '0 4 * * *' } } } } } };
    await writeFile(configPath, JSON.stringify(mine));
    await installOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(((await parsed()) as typeof mine).plugins.entries['memory-core']).toEqual(mine.plugins.entries['memory-core']);
    await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(await parsed()).toEqual(mine);

    const unset = { plugins: { entries: { 'memory-core': { config: { dreaming: { frequency: '0 4 * * *' } } } } } };
    await writeFile(configPath, JSON.stringify(unset));
    await installOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(((await parsed()) as { plugins: { entries: Record<string, unknown> } }).plugins.entries['memory-core']).toEqual({
      config: { dreaming: { frequency: '0 4 * * *' } },
      enabled: false,
    });
    await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(await parsed()).toEqual(unset);
  });

  it('changes nothing in a config Strata never touched, nor in a missing one', async () => {
    const untouched = `{ plugins: { allow: ['strata'], slots: { memory: 'memory-core' }, entries: { strata: { enabled: false } } } }\n`;
    await writeFile(configPath, untouched);
    const result = await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(result).toMatchObject({ action: 'unchanged', applied: false, basis: 'recognised' });
    expect(await readFile(configPath, 'utf8')).toBe(untouched);
    expect(await backups()).toHaveLength(0);

    const missing = await uninstallOpenClaw({ configPath: join(dir, 'absent.json'), pluginPath: plugin, apply: true });
    expect(missing).toMatchObject({ action: 'unchanged', applied: false });
    await expect(readFile(join(dir, 'absent.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('without an install record, removes a recognisable Strata install (e.g. made by hand)', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        plugins: {
          allow: ['strata', 'voice-call'],
          slots: { memory: 'strata' },
          load: { paths: [plugin, '/opt/other'] },
          entries: { strata: { enabled: true, hooks: { allowPromptInjection: true } }, 'voice-call': {} },
        },
      }),
    );
    const result = await uninstallOpenClaw({ configPath, pluginPath: plugin, apply: true });
    expect(result).toMatchObject({ action: 'update', basis: 'recognised' });
    expect(await parsed()).toEqual({
      plugins: { allow: ['voice-call'], slots: {}, load: { paths: ['/opt/other'] }, entries: { 'voice-call': {} } },
    });
  });

  it('--dry-run prints the change and writes nothing; without it the CLI applies', async () => {
    await installOpenClaw({ configPath, pluginPath: join(REPO_ROOT, 'openclaw-plugin'), apply: true });
    const installed = await readFile(configPath, 'utf8');

    const dry = await runCli(['uninstall', 'openclaw', '--config', configPath, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would update: ${configPath}`);
    expect(dry.stdout).not.toContain('"strata"');
    expect(await readFile(configPath, 'utf8')).toBe(installed);

    const applied = await runCli(['uninstall', 'openclaw', '--config', configPath, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ dryRun: false, action: 'update', applied: true });
    expect(await parsed()).toEqual({});
  });
});
