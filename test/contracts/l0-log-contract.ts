import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { L0LogV1, L0Record } from '../../src/spec/index.js';

/**
 * The behaviour every L0LogV1 backend must show. A backend test calls `runL0LogContract` with a
 * factory for a fresh, empty log; `open` gives another handle on the same storage (another
 * process, in effect); `tear` simulates a writer killed mid-append, for backends that can be torn.
 */
export interface L0LogContractOptions {
  name: string;
  create: () => Promise<{ log: L0LogV1; open: () => Promise<L0LogV1>; tear?: () => Promise<void>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

export function l0Record(i: number, extra: Partial<L0Record> = {}): L0Record {
  return {
    sessionKey: 'agent:a:main',
    sessionId: 's',
    agentId: 'a',
    host: 'jsonl',
    id: `id${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `message ${i}`,
    timestamp: 1_771_996_735_000 + i,
    recordedAt: new Date(1_771_996_735_000 + i).toISOString(),
    ...extra,
  };
}

export function runL0LogContract(options: L0LogContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`L0LogV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<L0LogContractOptions['create']>>;
    let log: L0LogV1;
    const ids = (entries: Array<{ record: L0Record }>) => entries.map((e) => e.record.id);

    beforeEach(async () => {
      ctx = await options.create();
      log = ctx.log;
    });
    afterEach(async () => {
      await ctx.cleanup();
    });

    test('append: returns each written entry with increasing positions; read returns them in order', async () => {
      const first = await log.append({ records: [l0Record(1), l0Record(2)] });
      const second = await log.append({ records: [l0Record(3)] });
      expect(first).toMatchObject({ written: 2, duplicates: 0 });
      const positions = [...first.entries, ...second.entries].map((e) => e.position);
      expect(positions).toEqual([...positions].sort());
      expect(new Set(positions).size).toBe(3);
      const all = await log.read();
      expect(all.done).toBe(true);
      expect(all.entries).toEqual([...first.entries, ...second.entries]);
      expect(all.entries[0]!.record).toEqual(l0Record(1));
      expect(all.end).toBe(positions[2]);
    });

    test('read: resumes exactly after a position, in pages of `limit`', async () => {
      await log.append({ records: Array.from({ length: 25 }, (_, i) => l0Record(i)) });
      const seen: string[] = [];
      let after: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const r = await log.read({ after, limit: 7 });
        seen.push(...ids(r.entries));
        after = r.end;
        if (r.done) break;
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `id${i}`));
      expect(await log.read({ after })).toEqual({ entries: [], end: after, done: true });
      await log.append({ records: [l0Record(99)] });
      expect(ids((await log.read({ after })).entries)).toEqual(['id99']);
    });

    test('read: an empty log reads nothing', async () => {
      expect(await log.read()).toEqual({ entries: [], end: undefined, done: true });
      await expect(log.read({ limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    test('append: drops records already present by entry id or by content, per session', async () => {
      expect((await log.append({ records: [l0Record(1), l0Record(2), l0Record(1)] })).written).toBe(2);
      const again = await log.append({ records: [l0Record(1), l0Record(3), l0Record(2, { id: 'renumbered' })] });
      expect(again).toMatchObject({ written: 1, duplicates: 2 });
      expect(ids(again.entries)).toEqual(['id3']);
      // Same entry id in another session is another message.
      expect((await log.append({ records: [l0Record(1, { sessionId: 'other' })] })).written).toBe(1);
      expect((await log.read()).entries).toHaveLength(4);
    });

    test('append: dedupe holds across handles on the same storage', async () => {
      await log.append({ records: [l0Record(1), l0Record(2)] });
      const other = await ctx.open();
      try {
        expect(await other.append({ records: [l0Record(1), l0Record(2), l0Record(3)] })).toMatchObject({ written: 1, duplicates: 2 });
        expect(await other.has({ record: l0Record(1) })).toBe(true);
        expect(await other.has({ record: l0Record(4) })).toBe(false);
      } finally {
        await other.close();
      }
      expect(ids((await log.read()).entries)).toEqual(['id1', 'id2', 'id3']);
    });

    test('append: concurrent appends from two handles all land once, positions unique and ordered', async () => {
      const other = await ctx.open();
      try {
        const batches = Array.from({ length: 8 }, (_, b) => Array.from({ length: 5 }, (_, i) => l0Record(b * 5 + i)));
        await Promise.all(batches.map((records, b) => (b % 2 === 0 ? log : other).append({ records: [...records, l0Record(b * 5)] })));
      } finally {
        await other.close();
      }
      const { entries } = await log.read({ limit: 1000 });
      expect(ids(entries).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `id${i}`).sort());
      const positions = entries.map((e) => e.position);
      expect(positions).toEqual([...positions].sort());
    });

    test('append: a dry run counts without writing or remembering', async () => {
      expect(await log.append({ records: [l0Record(1)], dryRun: true })).toMatchObject({ written: 1, entries: [] });
      expect((await log.read()).entries).toEqual([]);
      expect((await log.append({ records: [l0Record(1)] })).written).toBe(1);
    });

    test('readSession: filters by session id, key, agent, host and recording time', async () => {
      await log.append({
        records: [
          l0Record(1),
          l0Record(2, { sessionId: 's2', sessionKey: 'agent:a:other' }),
          l0Record(3, { agentId: 'b', sessionKey: 'agent:b:main' }),
          l0Record(4, { host: 'openclaw' }),
          l0Record(5, { recordedAt: new Date().toISOString() }),
        ],
      });
      expect(ids(await log.readSession({ sessionId: 's' }))).toEqual(['id1', 'id3', 'id4', 'id5']);
      expect(ids(await log.readSession({ sessionKey: 'agent:a:other' }))).toEqual(['id2']);
      expect(ids(await log.readSession({ agentId: 'b' }))).toEqual(['id3']);
      expect(ids(await log.readSession({ sessionId: 's', agentId: 'a', host: 'openclaw' }))).toEqual(['id4']);
      expect(
        ids(await log.readSession({ sessionId: 's', recordedSince: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) })),
      ).toEqual(['id5']);
      expect(await log.readSession({ sessionId: "s' OR '1'='1" })).toEqual([]);
    });

    test('sessions: one row per session with counts and times, most recent first', async () => {
      await log.append({ records: [l0Record(1), l0Record(2), l0Record(3, { agentId: 'b', sessionKey: 'agent:b:main', timestamp: 9e12 })] });
      const sessions = await log.sessions();
      expect(sessions.map((s) => [s.agentId, s.sessionId, s.messages])).toEqual([
        ['b', 's', 1],
        ['a', 's', 2],
      ]);
      expect(sessions[1]).toMatchObject({
        host: 'jsonl',
        sessionKey: 'agent:a:main',
        firstTimestamp: l0Record(1).timestamp,
        lastTimestamp: l0Record(2).timestamp,
      });
      expect((await log.sessions({ agentId: 'a' })).map((s) => s.agentId)).toEqual(['a']);
      expect(await log.sessions({ host: 'codex' })).toEqual([]);
    });

    test('repair: a torn tail is never read, is cut, and later appends read back whole', async () => {
      await log.append({ records: [l0Record(1)] });
      if (!ctx.tear) throw new Error('a backend with tornTails must give the contract a tear() helper');
      await ctx.tear();
      expect(ids((await log.read()).entries)).toEqual(['id1']);
      const repaired = await log.repair();
      expect(repaired.truncated).toBeGreaterThan(0);
      expect((await log.repair()).truncated).toBe(0);
      await log.append({ records: [l0Record(2)] });
      expect(ids((await log.read()).entries)).toEqual(['id1', 'id2']);
    });
  });
}
