/**
 * The real `strata mcp` (stdio, driven by the MCP SDK client) in remote mode: STRATA_URL and
 * STRATA_TOKEN make its tools call a real `strata serve` as the token's agent; the MCP process's
 * own home stays empty, and another agent's token cannot see what this one stored.
 */
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempHome } from '../support/run-cli.js';
import { call, CLI, countIn, newClient } from '../hosts/mcp-helpers.js';
import { remoteService, type RemoteService } from './serve-process.js';

let service: RemoteService;
let mcpHome: string;

beforeAll(async () => {
  service = await remoteService(['coder', 'reviewer']);
  mcpHome = await tempHome();
}, 60_000);

afterAll(async () => {
  await service?.close();
  await rm(mcpHome, { recursive: true, force: true });
});

async function mcpAs(agent: string) {
  const client = newClient();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, '--home', mcpHome, 'mcp'],
    cwd: REPO_ROOT,
    env: {
      ...(process.env as Record<string, string>),
      LANCEDB_LOG: 'error',
      STRATA_URL: service.server.url,
      STRATA_TOKEN: service.tokens[agent]!,
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

describe('strata mcp against a remote strata serve', () => {
  it('stores and recalls through the service as the token’s agent, and never across agents', async () => {
    const coder = await mcpAs('coder');
    try {
      const tools = (await coder.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['memory_store', 'memory_recall', 'memory_list']));
      const stored = await call(coder, 'memory_store', { text: 'The coder agent formats SQL with sqlfluff before review' });
      expect(stored.isError, JSON.stringify(stored.content)).toBeFalsy();
      const recalled = await call(coder, 'memory_recall', { query: 'sqlfluff' });
      expect(JSON.stringify(recalled.content)).toContain('sqlfluff');
      const widened = await call(coder, 'memory_list', { scope: ['agent:reviewer'] });
      expect(widened.isError).toBe(true);
      expect(JSON.stringify(widened.content)).toContain('FORBIDDEN_SCOPE');
    } finally {
      await coder.close();
    }
    // The memory lives on the service, in the coder's scope; the MCP machine's home holds nothing.
    expect(await countIn(service.home, ['agent:coder'])).toBe(1);
    expect((await readdir(mcpHome)).sort()).toEqual(['config.json']);

    const reviewer = await mcpAs('reviewer');
    try {
      const recalled = await call(reviewer, 'memory_recall', { query: 'sqlfluff' });
      expect(recalled.isError).toBeFalsy();
      expect(JSON.stringify(recalled.content)).not.toContain('formats SQL');
    } finally {
      await reviewer.close();
    }
  }, 120_000);
});
