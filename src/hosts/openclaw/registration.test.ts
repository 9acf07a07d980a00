import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenClawPlugin } from './index.js';
import { sharedEngineCount } from './engine.js';
import { MEMORY_SECTION_HEADING } from './memory-capability.js';
import type { EmbedderV1 } from '../../spec/embedder.js';
import { Strata } from '../../strata.js';
import { fakeEmbedding } from '../../../test/support/fake-embeddings.js';
import { OpenClawHarness } from '../../../test/support/openclaw-harness.js';
import { tempHome } from '../../../test/support/run-cli.js';

/** An embedder whose first query takes `firstDelayMs` (a model loading), later ones are instant. */
function loadingEmbedder(firstDelayMs: number) {
  const state = { calls: 0 };
  const embedder: EmbedderV1 = {
    specificationVersion: 'v1',
    id: 'test:loading',
    dimensions: 16,
    maxBatchSize: 64,
    supportsParallelCalls: true,
    distinguishesQueries: false,
    isRemote: false,
    async doEmbed({ texts, kind }) {
      if (kind === 'query' && state.calls++ === 0) await new Promise((r) => setTimeout(r, firstDelayMs));
      return { embeddings: texts.map((t) => fakeEmbedding(t, 16)) };
    },
  };
  return { embedder, state };
}

describe('OpenClaw registration modes and the shared engine', () => {
  let home: string;
  const hosts: OpenClawHarness[] = [];
  const harness = (options: ConstructorParameters<typeof OpenClawHarness>[0]) => {
    const h = new OpenClawHarness(options);
    hosts.push(h);
    return h;
  };

  beforeEach(async () => {
    home = await tempHome();
    const s = await Strata.open({ home, embedder: loadingEmbedder(0).embedder });
    await s.remember({ text: 'The deploy key rotates every Monday.', scope: 'agent:main', category: 'fact' });
    await s.close();
  });

  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.stopServices();
    await rm(home, { recursive: true, force: true });
  });

  it('cli-metadata and setup loads register the CLI only: no hooks, tools, service or engine', () => {
    for (const registrationMode of ['cli-metadata', 'setup-only', 'setup-runtime'] as const) {
      const h = harness({ pluginConfig: { home }, registrationMode });
      h.load(createOpenClawPlugin());
      expect(h.cliCommands()).toEqual(['strata']);
      expect(h.hookNames()).toEqual([]);
      expect(h.toolNames()).toEqual([]);
      expect(h.serviceIds()).toEqual([]);
      expect(h.memoryCapability).toBeUndefined();
    }
    expect(sharedEngineCount()).toBe(0);
  });

  it('discovery registers descriptors (tools, hooks, memory capability) but no service, and opens nothing', () => {
    const h = harness({ pluginConfig: { home }, registrationMode: 'discovery' });
    h.load(createOpenClawPlugin());
    expect(h.toolNames()).toContain('memory_recall');
    expect(h.hookNames()).toContain('before_prompt_build');
    expect(h.memoryCapability?.promptBuilder).toBeTypeOf('function');
    expect(h.serviceIds()).toEqual([]);
    expect(sharedEngineCount()).toBe(0);
  });

  it('every registration in a process shares one engine per home; the hooks of one reach the workers started by another', async () => {
    const { embedder } = loadingEmbedder(0);
    const full = harness({ pluginConfig: { home, distill: { enabled: true, everyMessages: 1 } }, registrationMode: 'full' });
    full.load(createOpenClawPlugin({ openOptions: { embedder } }));
    const discovery = harness({ pluginConfig: { home, distill: { enabled: true, everyMessages: 1 } }, registrationMode: 'discovery' });
    discovery.load(createOpenClawPlugin({ openOptions: { embedder } }));
    await full.startServices();
    // A turn handled by the other registration's hooks, as OpenClaw may do.
    const turn = await discovery.session({ agentId: 'main', sessionKey: 's1' }).turn('When does the deploy key rotate?');
    expect(turn.prependContext).toContain('every Monday');
    expect(sharedEngineCount()).toBe(1);
    // The distiller started by the full registration's service saw the capture (rule-based without an LLM).
    await expect.poll(() => full.logs.some((l) => /distilled \d+ messages/.test(l.message)), { timeout: 15_000 }).toBe(true);
  });

  it('the first recall of a new process waits for the store and embedder to load instead of skipping', async () => {
    const { embedder } = loadingEmbedder(2500); // model load far beyond the recall timeout
    const h = harness({ pluginConfig: { home, recallTimeoutMs: 800, distill: { enabled: false } }, registrationMode: 'full' });
    h.load(createOpenClawPlugin({ openOptions: { embedder } }));
    const turn = await h.session({ agentId: 'main', sessionKey: 's1' }).turn('When does the deploy key rotate?');
    expect(turn.prependContext).toContain('every Monday');
    expect(h.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('owns the memory section of the system prompt and no flush turn', () => {
    const h = harness({ pluginConfig: { home }, registrationMode: 'full' });
    h.load(createOpenClawPlugin());
    const cap = h.memoryCapability!;
    const lines = cap.promptBuilder!({ availableTools: new Set(['memory_recall', 'memory_store', 'memory_forget']) });
    expect(lines[0]).toBe(MEMORY_SECTION_HEADING);
    expect(lines.join('\n')).toMatch(/memory_recall/);
    expect(lines.join('\n')).not.toMatch(/memory_search|memory_get/);
    expect(cap.flushPlanResolver!({})).toBeNull();
    expect(Object.keys(cap)).not.toContain('kind');
    expect(Object.keys(createOpenClawPlugin())).not.toContain('kind');
  });

  it("the memory runtime searches Strata in the agent's scopes with OpenClaw's result shape", async () => {
    const { embedder } = loadingEmbedder(0);
    const h = harness({ pluginConfig: { home }, registrationMode: 'full' });
    h.load(createOpenClawPlugin({ openOptions: { embedder } }));
    const { manager } = await h.memoryCapability!.runtime!.getMemorySearchManager({ agentId: 'main' });
    const m = manager as {
      search(q: string): Promise<Array<{ path: string; snippet: string; score: number; source: string }>>;
      readFile(p: { relPath: string }): Promise<{ status: string; text: string }>;
    };
    const hits = await m.search('deploy key rotation');
    expect(hits[0]).toMatchObject({ snippet: 'The deploy key rotates every Monday.', source: 'memory' });
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    expect(await m.readFile({ relPath: hits[0]!.path })).toMatchObject({ status: 'ok', text: 'The deploy key rotates every Monday.' });
    const { manager: other } = await h.memoryCapability!.runtime!.getMemorySearchManager({ agentId: 'other' });
    expect(await (other as typeof m).search('deploy key rotation')).toEqual([]);
  });
});
