import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempHome, REPO_ROOT } from '../support/run-cli.js';
import { call, CLI, countIn, newClient, seed, seedConversations, textOf } from './mcp-helpers.js';

const TOOLS = [
  'memory_recall',
  'memory_store',
  'memory_update',
  'memory_forget',
  'memory_list',
  'memory_stats',
  'memory_explain',
  'conversation_search',
  'context_bootstrap',
];

describe('strata mcp (stdio, real child process)', () => {
  let home: string;
  let client: Client;
  let otherId: string;
  const transportErrors: Error[] = [];
  let stderr = '';

  beforeAll(async () => {
    home = await tempHome({ embedder: { provider: 'none' }, scopes: { agentGrants: { coder: ['project:strata'] } } });
    [otherId] = (await seed(home, [{ text: 'The other agent keeps its deploy password rotation notes here', scope: 'agent:other' }])) as [
      string,
    ];
    await seedConversations(home, [
      { agentId: 'coder', content: 'Can you bump the flaky retry budget in the ingest worker?' },
      { agentId: 'other', content: 'The flaky retry budget of the billing job is secret' },
    ]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', CLI, '--home', home, '--agent', 'coder', 'mcp'],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error', STRATA_AGENT_ID: 'ignored-because-flag-wins' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = newClient();
    client.onerror = (e) => transportErrors.push(e);
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists every tool with an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    expect(tools.find((t) => t.name === 'memory_recall')?.inputSchema.required).toEqual(['query']);
  });

  it('stores, recalls, lists, explains, bootstraps, updates and forgets within the agent scope', async () => {
    const stored = await call(client, 'memory_store', { text: 'The user prefers tabs over spaces in Go code', category: 'preference' });
    expect(stored.isError, textOf(stored)).toBeFalsy();
    const { id, action, memory } = stored.json() as { id: string; action: string; memory: { scope: string } };
    expect(action).toBe('created');
    expect(memory.scope).toBe('agent:coder');

    const dup = await call(client, 'memory_store', { text: 'The user prefers tabs over spaces in Go code' });
    expect((dup.json() as { action: string }).action).toBe('duplicate');

    const recall = await call(client, 'memory_recall', { query: 'tabs or spaces in Go?' });
    const hits = (recall.json() as { results: Array<{ id: string; score: number }> }).results;
    expect(hits[0]?.id).toBe(id);

    const list = await call(client, 'memory_list', { scope: 'agent:coder' });
    expect((list.json() as { memories: Array<{ id: string }> }).memories.map((m) => m.id)).toEqual([id]);

    const explain = await call(client, 'memory_explain', { query: 'tabs spaces Go' });
    expect((explain.json() as { explain: { candidates: unknown[] } }).explain.candidates.length).toBeGreaterThan(0);

    const boot = await call(client, 'context_bootstrap', {});
    // The layered session context (persona, scenes, memories), the same block Claude Code gets at session start.
    expect(textOf(boot)).toMatch(
      /^<agent-context agent="coder">\n<relevant-memories>[\s\S]*tabs over spaces[\s\S]*<\/relevant-memories>\n<\/agent-context>$/,
    );

    const updated = await call(client, 'memory_update', { id, importance: 0.9, scope: 'project:strata' });
    expect((updated.json() as { updated: { importance: number; scope: string } }).updated).toMatchObject({
      importance: 0.9,
      scope: 'project:strata',
    });

    const stats = await call(client, 'memory_stats');
    expect(stats.json()).toMatchObject({ agent: 'coder', memories: 1, byScope: { 'project:strata': 1, global: 0 } });
    expect(JSON.stringify(stats.json())).not.toContain('agent:other');

    const preview = await call(client, 'memory_forget', { query: 'tabs spaces Go' });
    expect(preview.json()).toMatchObject({ deleted: 0 });
    const forgot = await call(client, 'memory_forget', { ids: [id] });
    expect(forgot.json()).toMatchObject({ deleted: 1 });
  });

  it('returns invalid arguments and engine failures as tool errors, and keeps serving', async () => {
    const bad = [
      await call(client, 'memory_recall', { query: 42 }),
      await call(client, 'memory_recall', {}),
      await call(client, 'memory_store', { text: 'x', importance: 7 }),
      await call(client, 'memory_list', { limit: -1 }),
      await call(client, 'memory_update', { id: '01NOPE0000000000000000000', importance: 0.5 }),
      await call(client, 'memory_update', { id: '01NOPE0000000000000000000' }),
      await call(client, 'memory_forget', {}),
    ];
    for (const r of bad) expect(r.isError, textOf(r)).toBe(true);
    expect(textOf(bad[4]!)).toMatch(/NOT_FOUND/);
    expect(textOf(bad[5]!)).toMatch(/^error \[INVALID_ARGUMENT\]: .*at least one field/);
    const search = await call(client, 'conversation_search', { query: 'x'.repeat(5000) });
    expect(search.isError).toBe(true);
    expect((await client.listTools()).tools.length).toBe(TOOLS.length);
  });

  it('refuses scope widening and never shows another agent’s memories', async () => {
    for (const scope of ['agent:other', "x' OR '1'='1", 'user:someone']) {
      const store = await call(client, 'memory_store', { text: `sneaky note for ${scope}`, scope });
      expect(store.isError, textOf(store)).toBe(true);
      const recall = await call(client, 'memory_recall', { query: 'deploy password rotation', scope });
      expect(recall.isError).toBe(true);
    }
    const moved = await call(client, 'memory_update', { id: otherId, text: 'hijacked' });
    expect(textOf(moved)).toMatch(/NOT_FOUND/);
    // Another agent's memory is answered exactly like one that does not exist.
    const forgot = await call(client, 'memory_forget', { ids: [otherId] });
    expect(textOf(forgot)).toMatch(/^error \[NOT_FOUND\]/);
    const recall = await call(client, 'memory_recall', { query: 'deploy password rotation notes' });
    expect((recall.json() as { results: unknown[] }).results).toHaveLength(0);
  });

  it('searches only the calling agent’s conversations', async () => {
    const search = await call(client, 'conversation_search', { query: 'flaky retry budget' });
    expect(search.isError, textOf(search)).toBeFalsy();
    const hits = (search.json() as { results: Array<{ record: { agentId: string; content: string } }> }).results;
    expect(hits.map((h) => h.record.content)).toEqual(['Can you bump the flaky retry budget in the ingest worker?']);
  });

  it('lists persona and scenes as resources only once their files exist', async () => {
    expect((await client.listResources()).resources).toEqual([]);
    await mkdir(join(home, 'persona'), { recursive: true });
    await writeFile(join(home, 'persona', 'coder.md'), '# Coder\nPrefers small diffs.');
    await mkdir(join(home, 'scenes', 'coder'), { recursive: true });
    await writeFile(join(home, 'scenes', 'coder', 'release-week.md'), 'Release week scene');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['strata://persona/coder', 'strata://scene/release-week']);
    const read = await client.readResource({ uri: 'strata://persona/coder' });
    expect(read.contents[0]).toMatchObject({ text: '# Coder\nPrefers small diffs.' });
    await expect(client.readResource({ uri: 'strata://persona/other' })).rejects.toThrow();
  });

  it('kept stdout pure protocol and wrote nothing to agent:other', async () => {
    expect(transportErrors, stderr).toEqual([]);
    await client.close();
    expect(await countIn(home, ['agent:other'])).toBe(1);
    expect(await countIn(home, ['user:someone'])).toBe(0);
  });
});

describe('strata mcp (stdio, piped input)', () => {
  it('answers every request sent before stdin closed, then exits 0 with only JSON-RPC on stdout', async () => {
    const home = await tempHome();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'memory_store', arguments: { text: 'Piped input still gets an answer' } },
      },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_stats', arguments: {} } },
    ];
    const out = await runCli(['--home', home, 'mcp'], { input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    expect(out.code, out.stderr).toBe(0);
    const messages = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3]);
    expect(messages.every((m) => m.result && !m.result.isError)).toBe(true);
  });
});
