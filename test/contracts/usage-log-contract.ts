import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LlmUsageEntry, UsageLogV1 } from '../../src/spec/usage-log.js';

/**
 * The behaviour every UsageLogV1 backend must show. `create` makes a fresh, empty log; `open`
 * another handle on the same storage (another process, in effect).
 */
export interface UsageLogContractOptions {
  name: string;
  create: () => Promise<{ log: UsageLogV1; open: () => Promise<UsageLogV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

export function usageEntry(n: number, extra: Partial<LlmUsageEntry> = {}): LlmUsageEntry {
  return {
    at: new Date(Date.parse('2026-03-01T00:00:00Z') + n * 86_400_000).toISOString(),
    provider: 'openai',
    model: 'm',
    purpose: 'distill.extract',
    ok: true,
    inputTokens: 100 + n,
    outputTokens: 10,
    costUsd: n % 2 === 0 ? 0.01 : null,
    latencyMs: 5,
    attempts: 1,
    ...extra,
  };
}

export function runUsageLogContract(options: UsageLogContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`UsageLogV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<UsageLogContractOptions['create']>>;
    let log: UsageLogV1;
    const all = async (l: UsageLogV1, since?: string) => {
      const out: LlmUsageEntry[] = [];
      for await (const e of l.entries({ since })) out.push(e);
      return out;
    };
    beforeEach(async () => {
      ctx = await options.create();
      log = ctx.log;
    });
    afterEach(async () => ctx.cleanup());

    test('is versioned and states its capabilities', async () => {
      expect(log.specificationVersion).toBe('v1');
      expect(typeof log.capabilities.shared).toBe('boolean');
    });

    test('an empty log has no entries', async () => {
      expect(await all(log)).toEqual([]);
    });

    test('keeps every entry, oldest first, seen by another handle; `since` leaves out older ones', async () => {
      await log.append({ entries: [usageEntry(3), usageEntry(1, { ok: false, errorCode: 'TIMEOUT' })] });
      await log.append({ entries: [usageEntry(40)] });
      const other = await ctx.open();
      try {
        expect(await all(other)).toEqual([usageEntry(1, { ok: false, errorCode: 'TIMEOUT' }), usageEntry(3), usageEntry(40)]);
        expect((await all(other, usageEntry(3).at)).map((e) => e.inputTokens)).toEqual([103, 140]);
      } finally {
        await other.close();
      }
    });

    test('concurrent appends from two handles all land', async () => {
      const other = await ctx.open();
      try {
        await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 ? log : other).append({ entries: [usageEntry(n)] })));
      } finally {
        await other.close();
      }
      expect((await all(log)).map((e) => e.inputTokens).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => 100 + n));
    });
  });
}
