import { rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import type { EmbedderV1 } from '../../src/spec/embedder.js';
import { Strata } from '../../src/strata.js';
import { fakeEmbedding } from '../support/fake-embeddings.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { tempHome } from '../support/run-cli.js';

/** An embedder whose query calls hang (until aborted) while `slow` is set; documents are always fast. */
function gatedEmbedder() {
  const state = { slow: false, queryCalls: 0, aborted: 0 };
  const embedder: EmbedderV1 = {
    specificationVersion: 'v1',
    id: 'test:gated',
    dimensions: 16,
    maxBatchSize: 64,
    supportsParallelCalls: true,
    distinguishesQueries: false,
    isRemote: false,
    async doEmbed({ texts, kind, abortSignal }) {
      if (kind === 'query') {
        state.queryCalls += 1;
        if (state.slow) {
          await new Promise<never>((_resolve, reject) => {
            abortSignal?.addEventListener(
              'abort',
              () => {
                state.aborted += 1;
                reject(abortSignal.reason ?? new Error('aborted'));
              },
              { once: true },
            );
          });
        }
      }
      return { embeddings: texts.map((t) => fakeEmbedding(t, 16)) };
    },
  };
  return { embedder, state };
}

describe('automatic recall with a slow embedder', () => {
  let home: string;
  let host: OpenClawHarness;
  let now: number;
  const gated = gatedEmbedder();

  beforeEach(async () => {
    home = await tempHome();
    now = Date.parse('2026-11-01T10:00:00Z');
    const strata = await Strata.open({ home, embedder: gated.embedder });
    await strata.remember({ text: 'The release checklist lives in docs/RELEASING.md.', scope: 'agent:main', category: 'fact' });
    await strata.close();
    host = new OpenClawHarness({
      pluginConfig: { home, recallTimeoutMs: 150, recallCooldownMs: 60_000, distill: { enabled: false, onSessionEnd: false } },
    });
    host.load(createOpenClawPlugin({ openOptions: { embedder: gated.embedder }, now: () => now }));
  });

  afterEach(async () => {
    await host.stopServices();
    await rm(home, { recursive: true, force: true });
  });

  it('times out, cools down per agent, and recovers after the cooldown', async () => {
    const session = host.session({ agentId: 'main', sessionKey: 's1' });
    // A turn while the embedder is healthy: the process is warm (warm-up + recall = 2 query calls).
    const t0 = await session.turn('Where does the release checklist live?');
    expect(t0.prependContext).toContain('docs/RELEASING.md');
    gated.state.queryCalls = 0;
    gated.state.slow = true;
    const t1 = await session.turn('Where does the release checklist live, really?');
    expect(t1.prependContext).toBeUndefined();
    expect(gated.state.queryCalls).toBe(1);
    expect(gated.state.aborted).toBe(1); // the abandoned recall is cancelled, not left running
    expect(host.logs.some((l) => l.level === 'warn' && /automatic recall took over 150 ms/.test(l.message))).toBe(true);

    // Inside the cooldown the embedder is not even called.
    const t2 = await session.turn('What is in the release checklist again?');
    expect(t2.prependContext).toBeUndefined();
    expect(gated.state.queryCalls).toBe(1);

    // The cooldown is per agent: another agent still recalls (and times out on its own).
    const other = host.session({ agentId: 'other', sessionKey: 's2' });
    await other.turn('Which file holds the release checklist?');
    expect(gated.state.queryCalls).toBe(2);

    // After the cooldown, with a healthy embedder, recall is back.
    gated.state.slow = false;
    now += 60_001;
    const t3 = await session.turn('Remind me where the release checklist lives?');
    expect(gated.state.queryCalls).toBe(3);
    expect(t3.prependContext).toContain('docs/RELEASING.md');
  });
});
