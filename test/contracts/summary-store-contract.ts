import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/errors/index.js';
import type { SummaryIndex, SummaryStoreV1 } from '../../src/spec/summary-store.js';

/**
 * The behaviour every SummaryStoreV1 backend must show. `create` makes a fresh, empty store;
 * `open` another handle on the same storage (another process, in effect).
 */
export interface SummaryStoreContractOptions {
  name: string;
  create: () => Promise<{ store: SummaryStoreV1; open: () => Promise<SummaryStoreV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const KEY = 'agent:main:telegram:+4912/..\\x';

function indexWith(agentId: string, sessionKey: string, ids: string[]): SummaryIndex {
  return {
    version: 1,
    agentId,
    sessionKey,
    summaries: ids.map((id, n) => ({
      id,
      level: 1,
      file: `${id}.md`,
      sourceIds: [`openclaw|${agentId}|s|m${n}`],
      from: 1000 + n,
      to: 2000 + n,
      sourceTokens: 100,
      tokens: 10,
      messageCount: 1,
      mergedInto: null,
      createdAt: '2026-03-01T00:00:00.000Z',
    })),
    updatedAt: '2026-03-01T00:00:00.000Z',
  };
}

export function runSummaryStoreContract(options: SummaryStoreContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`SummaryStoreV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<SummaryStoreContractOptions['create']>>;
    let store: SummaryStoreV1;
    beforeEach(async () => {
      ctx = await options.create();
      store = ctx.store;
    });
    afterEach(async () => ctx.cleanup());

    test('is versioned and states its capabilities', async () => {
      expect(store.specificationVersion).toBe('v1');
      expect(typeof store.capabilities.shared).toBe('boolean');
      expect(typeof store.capabilities.lockEndsWithHolder).toBe('boolean');
    });

    test('an unknown session has no index, texts or listed sessions', async () => {
      expect(await store.readIndex({ agentId: 'main', sessionKey: KEY })).toBeUndefined();
      expect(await store.readText({ agentId: 'main', sessionKey: KEY, id: 'L1-0001' })).toBeUndefined();
      expect(await store.indexes({ agentId: 'main' })).toEqual([]);
    });

    test('commit stores the text and the index, seen by another handle; the next commit replaces the index', async () => {
      const s = { agentId: 'main', sessionKey: KEY };
      await store.commit({ ...s, id: 'L1-0001', text: 'First summary.', index: indexWith('main', KEY, ['L1-0001']) });
      await store.commit({ ...s, id: 'L1-0002', text: 'Second summary.\n', index: indexWith('main', KEY, ['L1-0001', 'L1-0002']) });
      const other = await ctx.open();
      try {
        expect(await other.readIndex(s)).toEqual(indexWith('main', KEY, ['L1-0001', 'L1-0002']));
        expect(await other.readText({ ...s, id: 'L1-0001' })).toBe('First summary.');
        expect(await other.readText({ ...s, id: 'L1-0002' })).toBe('Second summary.');
      } finally {
        await other.close();
      }
    });

    test('indexes lists every session of one agent, never another agent', async () => {
      await store.commit({ agentId: 'main', sessionKey: 'a', id: 'L1-0001', text: 'a', index: indexWith('main', 'a', ['L1-0001']) });
      await store.commit({ agentId: 'main', sessionKey: 'b', id: 'L1-0001', text: 'b', index: indexWith('main', 'b', ['L1-0001']) });
      await store.commit({ agentId: 'ops', sessionKey: 'a', id: 'L1-0001', text: 'c', index: indexWith('ops', 'a', ['L1-0001']) });
      expect((await store.indexes({ agentId: 'main' })).map((i) => i.sessionKey).sort()).toEqual(['a', 'b']);
      expect((await store.indexes({ agentId: 'ops' })).map((i) => i.sessionKey)).toEqual(['a']);
      expect(await store.readText({ agentId: 'ops', sessionKey: 'a', id: 'L1-0001' })).toBe('c');
    });

    test('the session lock: a second holder fails fast with STORE_LOCKED, other sessions stay free', async () => {
      const other = await ctx.open();
      try {
        let release!: () => void;
        let entered!: () => void;
        const inside = new Promise<void>((r) => (entered = r));
        const first = store.exclusive({ agentId: 'main', sessionKey: KEY }, () => {
          entered();
          return new Promise<string>((r) => (release = () => r('first')));
        });
        await inside;
        const error = await other.exclusive({ agentId: 'main', sessionKey: KEY, timeoutMs: 0 }, async () => 'x').catch((e: unknown) => e);
        expect(StrataError.isInstance(error) && error.code).toBe('STORE_LOCKED');
        expect(await other.exclusive({ agentId: 'main', sessionKey: 'another', timeoutMs: 0 }, async () => 'free')).toBe('free');
        release();
        expect(await first).toBe('first');
        expect(await other.exclusive({ agentId: 'main', sessionKey: KEY, timeoutMs: 0 }, async () => 'then')).toBe('then');
      } finally {
        await other.close();
      }
    });

    test('a commit made under the lock is read by the next holder', async () => {
      const s = { agentId: 'main', sessionKey: KEY };
      const other = await ctx.open();
      try {
        await store.exclusive(s, () => store.commit({ ...s, id: 'L1-0001', text: 't', index: indexWith('main', KEY, ['L1-0001']) }));
        expect(await other.exclusive(s, () => other.readIndex(s))).toEqual(indexWith('main', KEY, ['L1-0001']));
      } finally {
        await other.close();
      }
    });
  });
}
