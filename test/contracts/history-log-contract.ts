import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEntry, HistoryLogV1, MemoryRecord } from '../../src/spec/index.js';

/**
 * The behaviour every HistoryLogV1 backend must show. `create` makes a fresh, empty log; `open`
 * another handle on the same storage (another process, in effect).
 */
export interface HistoryLogContractOptions {
  name: string;
  create: () => Promise<{ log: HistoryLogV1; open: () => Promise<HistoryLogV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const ulid = (n: number) => `01JAAAAAAAAAAAAAAAAAA${String(n).padStart(5, '0')}`;

function record(id: string, text: string): MemoryRecord {
  return {
    id,
    text,
    category: 'fact',
    scope: 'global',
    importance: 0.5,
    confidence: 0.9,
    tags: ['a'],
    source: { kind: 'manual' },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    validFrom: '2026-01-01T00:00:00.000Z',
    validTo: null,
    supersedes: null,
    supersededBy: null,
    contentHash: 'h',
    embeddingModel: 'none',
    accessCount: 0,
    lastAccessedAt: null,
  };
}

export function entry(n: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    entryId: ulid(n),
    id: 'M1',
    at: `2026-02-${String(1 + (n % 27)).padStart(2, '0')}T10:00:00.000Z`,
    actor: 'cli',
    action: 'update',
    reason: `change ${n}`,
    previous: record('M1', `before ${n}`),
    next: { text: `after ${n}`, scope: 'global', category: 'fact', validTo: null, supersedes: null, supersededBy: null },
    ...extra,
  };
}

export function runHistoryLogContract(options: HistoryLogContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`HistoryLogV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<HistoryLogContractOptions['create']>>;
    let log: HistoryLogV1;
    const all = async (l: HistoryLogV1) => {
      const out: HistoryEntry[] = [];
      for await (const e of l.entries()) out.push(e);
      return out;
    };

    beforeEach(async () => {
      ctx = await options.create();
      log = ctx.log;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    test('empty: no entries, no history', async () => {
      expect(await all(log)).toEqual([]);
      expect(await log.historyOf({ id: 'M1' })).toEqual([]);
    });

    test('append then read back: entries intact, in the order appended, shared by handles', async () => {
      const first = [entry(3), entry(1, { action: 'create', previous: null })];
      await log.append({ entries: first });
      await log.append({ entries: [entry(2, { reverts: ulid(1), action: 'revert', actor: 'mcp' })] });
      expect(await all(log)).toEqual([...first, entry(2, { reverts: ulid(1), action: 'revert', actor: 'mcp' })]);
      const other = await ctx.open();
      try {
        expect((await all(other)).map((e) => e.entryId)).toEqual([ulid(3), ulid(1), ulid(2)]);
      } finally {
        await other.close();
      }
    });

    test('historyOf: subject or related memory, oldest first by time then entry id, nothing of others', async () => {
      const related = { id: 'M9', previous: record('M9', 'old'), next: null };
      await log.append({ entries: [entry(5), entry(4, { id: 'M2', related: [related] }), entry(2), entry(30, { id: 'M3' })] });
      expect((await log.historyOf({ id: 'M1' })).map((e) => e.entryId)).toEqual([ulid(2), ulid(5)]);
      expect(await log.historyOf({ id: 'M9' })).toEqual([entry(4, { id: 'M2', related: [related] })]);
      expect(await log.historyOf({ id: "M1' OR '1'='1" })).toEqual([]);
      // Same time: entry id decides.
      await log.append({ entries: [entry(32), entry(31)].map((e) => ({ ...e, at: '2026-03-01T00:00:00.000Z' })) });
      expect((await log.historyOf({ id: 'M1' })).map((e) => e.entryId).slice(-2)).toEqual([ulid(31), ulid(32)]);
    });

    test('concurrent appends from two handles: nothing lost, nothing interleaved', async () => {
      const other = await ctx.open();
      try {
        const batches = Array.from({ length: 20 }, (_, b) => Array.from({ length: 10 }, (_, i) => entry(100 + b * 10 + i)));
        await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? log : other).append({ entries: batch })));
        const ids = (await all(log)).map((e) => e.entryId);
        expect(ids).toHaveLength(200);
        expect(new Set(ids).size).toBe(200);
        // Each call's entries stay together, in their order.
        for (const batch of batches) {
          const at = ids.indexOf(batch[0]!.entryId);
          expect(ids.slice(at, at + 10)).toEqual(batch.map((e) => e.entryId));
        }
      } finally {
        await other.close();
      }
    });
  });
}
