import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/run-cli.js';
import { Strata } from '../../src/strata.js';

export const CLI = join(REPO_ROOT, 'src/cli/main.ts');

export function newClient(): Client {
  return new Client({ name: 'strata-test', version: '0.0.0' });
}

/** Calls a tool and returns its result (tool errors come back as results, not throws). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult & { json: () => unknown }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return Object.assign(result, { json: () => JSON.parse(text) as unknown, text });
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Seeds memories straight through the library (the MCP child opens the same home afterwards). */
export async function seed(home: string, items: Array<{ text: string; scope: string }>): Promise<string[]> {
  const strata = await Strata.open({ home });
  try {
    const results = await strata.rememberMany({ items });
    return results.map((r) => r.id);
  } finally {
    await strata.close();
  }
}

export async function countIn(home: string, scopes: string[]): Promise<number> {
  const strata = await Strata.open({ home });
  try {
    return await strata.count({ scopes });
  } finally {
    await strata.close();
  }
}

/** Seeds the conversation (L0) index the way capture does. */
export async function seedConversations(home: string, messages: Array<{ agentId: string; content: string }>): Promise<void> {
  const strata = await Strata.open({ home });
  try {
    await strata.appendConversation({
      records: messages.map((m, i) => ({
        sessionKey: `agent:${m.agentId}:main`,
        sessionId: 's1',
        agentId: m.agentId,
        host: 'jsonl' as const,
        id: `m${i}`,
        role: 'user' as const,
        content: m.content,
        timestamp: 1_771_996_735_000 + i,
        recordedAt: new Date().toISOString(),
      })),
    });
  } finally {
    await strata.close();
  }
}
