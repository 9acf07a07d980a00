/**
 * `Strata.open` as wiring: every part can be injected, and backends come from per-kind factories
 * that import only the configured provider, so a store that is not used is never loaded.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNoneEmbedder } from '../../src/backends/embedder-none/index.js';
import type { LlmV1 } from '../../src/spec/llm.js';
import { Strata } from '../../src/strata.js';
import { MemoryConversationIndex } from '../support/memory-conversation-index.js';
import { InMemoryMemoryStore } from '../support/memory-store.js';
import { REPO_ROOT, tempHome } from '../support/run-cli.js';

let home: string;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(() => rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }));

/** Whether a process that opens Strata this way has LanceDB's native module mapped in memory. */
function loadsLanceDb(script: string): boolean {
  const code = `
    const { Strata } = await import(${JSON.stringify(join(REPO_ROOT, 'src/strata.ts'))});
    const { InMemoryMemoryStore } = await import(${JSON.stringify(join(REPO_ROOT, 'test/support/memory-store.ts'))});
    const { MemoryConversationIndex } = await import(${JSON.stringify(join(REPO_ROOT, 'test/support/memory-conversation-index.ts'))});
    const home = ${JSON.stringify(home)};
    ${script}
    const { readFileSync } = await import('node:fs');
    process.stdout.write(/lancedb/i.test(readFileSync('/proc/self/maps', 'utf8')) ? 'loaded' : 'not loaded');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim() === 'loaded';
}

describe('Strata.open wiring', () => {
  it('loads LanceDB only when a LanceDB part is configured and used', () => {
    const injected = `
      const s = await Strata.open({ home, store: new InMemoryMemoryStore(), conversationIndex: new MemoryConversationIndex() });
      await s.remember({ text: 'a memory in the injected store', scope: 'global' });
      await s.capture({ agentId: 'a', sessionKey: 'k', messages: [{ role: 'user', content: 'hello' }] });
      await s.searchConversations({ query: 'hello' });
      await s.close();`;
    expect(loadsLanceDb(injected)).toBe(false);
    expect(
      loadsLanceDb(`const s = await Strata.open({ home }); await s.remember({ text: 'into lancedb', scope: 'global' }); await s.close();`),
    ).toBe(true);
  }, 120_000);

  it('runs on injected parts: store, conversation index, L0 log handle, embedder and LLM', async () => {
    const calls: string[] = [];
    const llm: LlmV1 = {
      specificationVersion: 'v1',
      provider: 'scripted',
      modelId: 'm',
      capabilities: { supportsJsonSchema: true, supportsTools: false },
      async doGenerate(options) {
        calls.push(options.messages.at(-1)?.content ?? '');
        return { text: '{}', toolCalls: [], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
      },
    };
    const store = new InMemoryMemoryStore();
    const conversationIndex = new MemoryConversationIndex();
    const strata = await Strata.open({ home, store, conversationIndex, embedder: createNoneEmbedder(), llm, reranker: null });
    try {
      await strata.remember({ text: 'the injected store holds this', scope: 'global' });
      expect(await store.count({ filter: { scopes: ['global'] } })).toBe(1);
      await strata.capture({ agentId: 'a', sessionKey: 'k', messages: [{ role: 'user', content: 'injected index please' }] });
      expect(await conversationIndex.count()).toBe(1);
      expect((await strata.searchConversations({ query: 'injected', limit: 3 })).map((h) => h.record.content)).toEqual([
        'injected index please',
      ]);
      expect(strata.llm()?.inner).toBe(llm);
      expect(strata.loadedConfig.config.store.provider).toBe('lancedb');
    } finally {
      await strata.close();
    }
    const off = await Strata.open({
      home,
      store: new InMemoryMemoryStore(),
      llm: null,
      overrides: { llm: { provider: 'openai', model: 'x' } },
    });
    try {
      expect(off.llm()).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
