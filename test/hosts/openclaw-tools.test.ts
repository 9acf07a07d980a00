import { ORGANISER_TOOL_NAMES } from '../../src/hosts/openclaw/organiser-runner.js';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPluginManifest, createOpenClawPlugin, pluginConfigJsonSchema, TOOL_NAMES } from '../../src/hosts/openclaw/index.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { REPO_ROOT, tempHome } from '../support/run-cli.js';
import { Strata } from '../../src/strata.js';

interface Details {
  action?: string;
  id?: string;
  memory?: { id: string; scope: string; tags: string[] };
  memories?: Array<{ id: string; text: string; scope: string }>;
  results?: Array<{ id: string; text: string; scope: string; score: number }>;
  matches?: Array<{ id: string }>;
  deleted?: number;
  updated?: { id: string };
  error?: { code: string; message: string };
  scopes?: string[];
}

const details = (r: { details: unknown }) => r.details as Details;

describe('OpenClaw plugin tools', () => {
  let home: string;
  let host: OpenClawHarness;
  const main = { agentId: 'coder', sessionKey: 's' };

  beforeAll(async () => {
    home = await tempHome();
    host = new OpenClawHarness({ pluginConfig: { home, agentGrants: { coder: ['project:strata'] }, distill: { enabled: false } } });
    host.load(createOpenClawPlugin());
  });

  afterAll(async () => {
    await host.stopServices();
    await rm(home, { recursive: true, force: true });
  });

  it('expose JSON-schema parameters and a manifest that matches the runtime schema', async () => {
    const recall = host.tool('memory_recall', main);
    expect(recall.parameters).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    expect(recall.parameters).not.toHaveProperty('$schema');
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'openclaw-plugin/openclaw.plugin.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ id: 'strata', kind: 'memory' });
    expect(manifest).toEqual(buildPluginManifest());
    expect(manifest.configSchema).toEqual(pluginConfigJsonSchema());
    // Every UI hint names a real config field (OpenClaw ignores hints for unknown paths silently).
    const props = (manifest.configSchema as { properties: Record<string, { properties?: Record<string, unknown> }> }).properties;
    for (const key of Object.keys(manifest.uiHints as object)) {
      const [head, sub] = key.split('.');
      expect(sub ? props[head!]?.properties?.[sub] : props[head!], key).toBeDefined();
    }
    expect((manifest.contracts as { tools: string[] }).tools).toEqual([...TOOL_NAMES, ...ORGANISER_TOOL_NAMES].sort());
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'openclaw-plugin/package.json'), 'utf8')) as {
      openclaw: { extensions: string[] };
    };
    expect(pkg.openclaw.extensions).toEqual(['./index.js']);
  });

  it('store, recall, update, list, stats and forget within the agent scopes', async () => {
    const stored = await host.callTool(
      'memory_store',
      { text: 'The CI runs on two cores, so tests must stay fast.', category: 'fact', confidence: 0.4 },
      main,
    );
    expect(details(stored)).toMatchObject({ action: 'created', memory: { scope: 'agent:coder' } });
    const id = details(stored).id!;
    expect(stored.content[0]!.text).toBe(`Stored memory ${id} in agent:coder.`);
    // confidence reaches the engine (this tool used to drop it).
    const reader = await Strata.open({ home });
    expect((await reader.get({ ids: [id] }))[0]?.confidence).toBe(0.4);
    await reader.close();
    const dup = await host.callTool('memory_store', { text: 'The CI runs on two cores, so tests must stay fast.' }, main);
    expect(details(dup).action).toBe('duplicate');
    // Said in words, never "[object Object]".
    expect(dup.content[0]!.text).toBe(`Already stored as memory ${id} (same text); nothing added.`);
    const granted = await host.callTool('memory_store', { text: 'Strata uses LanceDB as its store.', scope: 'project:strata' }, main);
    expect(details(granted)).toMatchObject({ action: 'created', memory: { scope: 'project:strata' } });

    const found = await host.callTool('memory_recall', { query: 'how many cores does CI have?' }, main);
    expect(found.content[0]!.text).toMatch(/^Found \d+ memor(y|ies):/);
    // Scores are plain numbers, never a percentage (a "(101%)" claimed more than certainty).
    expect(found.content[0]!.text).toMatch(/\(score \d+\.\d\d\) id=/);
    expect(found.content[0]!.text).not.toMatch(/%/);
    expect(details(found).results!.map((m) => m.id)).toContain(id);

    const updated = await host.callTool('memory_update', { id, text: 'The CI runs on two cores; keep each test file under 20 s.' }, main);
    expect(details(updated).updated?.id).toBe(id);

    const listed = await host.callTool('memory_list', { scope: 'project:strata' }, main);
    expect(details(listed).memories!.map((m) => m.scope)).toEqual(['project:strata']);

    const stats = await host.callTool('memory_stats', {}, main);
    expect(details(stats)).toMatchObject({ agent: 'coder', scopes: ['global', 'agent:coder', 'project:strata'], memories: 2 });

    const preview = await host.callTool('memory_forget', { query: 'CI cores' }, main);
    expect(details(preview)).toMatchObject({ deleted: 0 });
    expect(details(preview).matches!.length).toBeGreaterThan(0);
    const forgot = await host.callTool('memory_forget', { memoryId: id }, main);
    expect(details(forgot)).toMatchObject({ deleted: 1, ids: [id] });
  });

  it('refuse scope widening and keep agents apart', async () => {
    const stored = await host.callTool('memory_store', { text: 'Coder-only note: the staging key rotates weekly.' }, main);
    const id = details(stored).id!;

    for (const [tool, params, code] of [
      ['memory_store', { text: 'sneaky', scope: 'agent:other' }, 'FORBIDDEN_SCOPE'],
      ['memory_recall', { query: 'staging key', scope: 'agent:other' }, 'FORBIDDEN_SCOPE'],
      ['memory_list', { scope: 'global; DROP' }, 'INVALID_SCOPE'],
      ['memory_update', { id, scope: 'user:alice' }, 'FORBIDDEN_SCOPE'],
    ] as const) {
      const r = await host.callTool(tool, params, main);
      expect(details(r).error?.code, tool).toBe(code);
      expect(r.content[0]!.text).toMatch(new RegExp(`^error \\[${code}\\]`));
    }

    // Another agent neither sees nor can change or delete the coder's memory.
    const other = { agentId: 'other' };
    const seen = await host.callTool('memory_recall', { query: 'staging key rotates' }, other);
    expect(details(seen).results!.map((m) => m.id)).not.toContain(id);
    expect(details(await host.callTool('memory_update', { id, text: 'hijacked' }, other)).error?.code).toBe('NOT_FOUND');
    expect(details(await host.callTool('memory_forget', { memoryId: id }, other)).error?.code).toBe('NOT_FOUND');
    const still = await host.callTool('memory_list', {}, main);
    expect(details(still).memories!.find((m) => m.id === id)?.text).toBe('Coder-only note: the staging key rotates weekly.');

    // Bad parameters are a readable tool error, not a crash.
    const bad = await host.callTool('memory_recall', { query: '', limit: 500 }, main);
    expect(details(bad).error?.code).toBe('INVALID_ARGUMENT');
  });

  it('mounts the strata CLI under openclaw with the plugin home', async () => {
    const out = await host.runCli(['strata', 'list', '--agent', 'coder', '--json']);
    const parsed = JSON.parse(out) as unknown;
    expect(JSON.stringify(parsed)).toContain('staging key rotates weekly');
  });
});
