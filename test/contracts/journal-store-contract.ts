import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/errors/index.js';
import type { JournalPendingFlush, JournalSessionProgress, JournalStoreV1 } from '../../src/spec/journal-store.js';

/**
 * The behaviour every JournalStoreV1 backend must show. `create` makes a fresh, empty store;
 * `open` another handle on the same storage (another process, in effect).
 */
export interface JournalStoreContractOptions {
  name: string;
  create: () => Promise<{ store: JournalStoreV1; open: () => Promise<JournalStoreV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const SESSION = 'agent:main:telegram:+4912/..\\x';

function progress(at: string, id = 'm1'): JournalSessionProgress {
  return { agentId: 'main', lastFlushAt: at, lastMessageId: id, lastMessageTimestamp: Date.parse(at) - 1000, count: 2 };
}

function pending(sessionId: string, flushedAt: string): JournalPendingFlush {
  return {
    version: 1,
    sessionId,
    agentId: null,
    flushedAt,
    source: 'l0',
    messages: 3,
    prompt: `prompt of ${sessionId}`,
    failures: 3,
    lastError: 'HTTP 503',
  };
}

export function runJournalStoreContract(options: JournalStoreContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`JournalStoreV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<JournalStoreContractOptions['create']>>;
    let store: JournalStoreV1;
    let other: JournalStoreV1;
    beforeEach(async () => {
      ctx = await options.create();
      store = ctx.store;
      other = await ctx.open();
    });
    afterEach(async () => {
      await other.close();
      await ctx.cleanup();
    });

    test('is versioned and states its capabilities', async () => {
      expect(store.specificationVersion).toBe('v1');
      expect(typeof store.capabilities.shared).toBe('boolean');
      expect(typeof store.capabilities.lockEndsWithHolder).toBe('boolean');
    });

    test('an empty journal has no days, progress, pending flushes, compile state, articles or index', async () => {
      expect(await store.days()).toEqual([]);
      expect(await store.readDay('2026-11-21')).toBeUndefined();
      expect(await store.readProgress(SESSION)).toBeUndefined();
      expect(await store.listPending()).toEqual([]);
      expect(await store.readCompiled()).toEqual({});
      expect(await store.readArticles()).toEqual([]);
      expect(await store.readIndex()).toBeUndefined();
    });

    test('appends create the day log with its title and separate entries by one blank line; another handle reads them', async () => {
      await store.appendToDay({ day: '2026-11-22', text: '## 10:00 UTC · session a\n\nfirst\n' });
      await store.appendToDay({ day: '2026-11-21', text: '## 09:00 UTC · session b\n\nearlier day' });
      await other.appendToDay({ day: '2026-11-22', text: '## 11:00 UTC · session c\n\nsecond\n' });
      await store.appendToDay({ day: '2026-11-21', text: '## 09:30 UTC · session b\n\nno newline before me\n' });
      expect(await other.days()).toEqual(['2026-11-21', '2026-11-22']);
      expect(await other.readDay('2026-11-22')).toBe(
        '# Journal 2026-11-22\n\n## 10:00 UTC · session a\n\nfirst\n\n## 11:00 UTC · session c\n\nsecond\n',
      );
      expect(await other.readDay('2026-11-21')).toBe(
        '# Journal 2026-11-21\n\n## 09:00 UTC · session b\n\nearlier day\n\n## 09:30 UTC · session b\n\nno newline before me\n',
      );
      expect(typeof store.dayLocation('2026-11-22')).toBe('string');
    });

    test('concurrent appends from two handles lose nothing and never tear an entry', async () => {
      await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (i % 2 ? store : other).appendToDay({ day: '2026-11-21', text: `## entry ${i}\n\nbody ${i}\n` }),
        ),
      );
      const log = (await store.readDay('2026-11-21'))!;
      expect(log.match(/^# Journal/gm)).toHaveLength(1);
      expect(log.match(/^## /gm)).toHaveLength(24);
      for (let i = 0; i < 24; i++) expect(log).toContain(`## entry ${i}\n\nbody ${i}\n`);
    });

    test('commitFlush records the entry and the progress together, and forgets sessions idle before forgetBefore', async () => {
      await store.commitFlush({
        sessionId: 'old',
        progress: progress('2026-01-01T00:00:00.000Z'),
        forgetBefore: '2025-12-01T00:00:00.000Z',
      });
      expect(await other.readProgress('old')).toEqual(progress('2026-01-01T00:00:00.000Z'));
      const result = await store.commitFlush({
        sessionId: SESSION,
        progress: progress('2026-11-21T10:00:00.000Z', 'm9'),
        forgetBefore: '2026-08-23T10:00:00.000Z',
        entry: { day: '2026-11-21', text: '## 10:00 UTC · session s\n\nentry\n' },
      });
      expect(result.pendingId).toBeUndefined();
      expect(await other.readProgress(SESSION)).toEqual(progress('2026-11-21T10:00:00.000Z', 'm9'));
      expect(await other.readProgress('old')).toBeUndefined();
      expect(await other.readDay('2026-11-21')).toBe('# Journal 2026-11-21\n\n## 10:00 UTC · session s\n\nentry\n');
      expect(await other.listPending()).toEqual([]);
    });

    test('a pending flush is kept, retried once between two handles, and its entry written when it succeeds', async () => {
      const first = await store.commitFlush({
        sessionId: 'f1',
        progress: progress('2026-11-21T10:00:00.000Z'),
        forgetBefore: '2026-01-01T00:00:00.000Z',
        pending: pending('f1', '2026-11-21T10:00:00.000Z'),
      });
      const second = await store.commitFlush({
        sessionId: 'f2',
        progress: progress('2026-11-21T10:05:00.000Z'),
        forgetBefore: '2026-01-01T00:00:00.000Z',
        pending: pending('f2', '2026-11-21T10:05:00.000Z'),
      });
      expect(await other.listPending()).toEqual([first.pendingId, second.pendingId]);
      expect(await other.readDay('2026-11-21')).toBeUndefined();

      // A failed retry records the failure and keeps it.
      expect(await other.withPending(first.pendingId!, async () => ({ ok: false, error: 'still down' }))).toBe('failed');
      let seen: JournalPendingFlush | undefined;
      // While one handle holds it, the other is told it is busy.
      const held = store.withPending(first.pendingId!, async (p) => {
        seen = p;
        expect(await other.withPending(first.pendingId!, async () => ({ ok: false, error: 'x' }))).toBe('busy');
        return { ok: true, day: '2026-11-21', text: '## 10:00 UTC · session f1\n\nrecovered\n' };
      });
      expect(await held).toBe('done');
      expect(seen).toMatchObject({ sessionId: 'f1', prompt: 'prompt of f1', failures: 4, lastError: 'still down' });
      expect(await other.withPending(first.pendingId!, async () => ({ ok: true, day: '2026-11-21', text: 'twice' }))).toBe('gone');
      expect(await other.listPending()).toEqual([second.pendingId]);
      expect(await other.readDay('2026-11-21')).toBe('# Journal 2026-11-21\n\n## 10:00 UTC · session f1\n\nrecovered\n');
    });

    test('commitCompile stores articles, the index and the day state; a later compile replaces them', async () => {
      const compiled = { hash: 'a'.repeat(64), length: 120, compiledAt: '2026-11-21T12:00:00.000Z' };
      await store.commitCompile({
        day: '2026-11-21',
        compiled,
        articles: [
          { slug: 'rollback-plan', text: '# Rollback plan\n\nv1\n' },
          { slug: 'blue-green', text: '# Blue-green\n\n[[rollback-plan]]\n' },
        ],
        index: '# Knowledge index\n',
      });
      const later = { hash: 'b'.repeat(64), length: 200, compiledAt: '2026-11-21T14:00:00.000Z' };
      await other.commitCompile({
        day: '2026-11-21',
        compiled: later,
        articles: [{ slug: 'rollback-plan', text: 'v2' }],
        index: '# Index 2\n',
      });
      await other.commitCompile({ day: '2026-11-20', compiled, articles: [], index: '# Index 3\n' });
      expect(await store.readCompiled()).toEqual({ '2026-11-21': later, '2026-11-20': compiled });
      expect(await store.readArticles()).toEqual([
        { slug: 'blue-green', text: '# Blue-green\n\n[[rollback-plan]]\n' },
        { slug: 'rollback-plan', text: 'v2' },
      ]);
      expect(await store.readIndex()).toBe('# Index 3\n');
    });

    test('locks: a second holder fails fast with STORE_LOCKED; other sessions and the compile lock stay free', async () => {
      let release!: () => void;
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const session = { kind: 'session', sessionId: SESSION } as const;
      const first = store.exclusive({ lock: session, timeoutMs: 1000 }, () => {
        entered();
        return new Promise<string>((r) => (release = () => r('first')));
      });
      await inside;
      const error = await other.exclusive({ lock: session, timeoutMs: 0 }, async () => 'x').catch((e: unknown) => e);
      expect(StrataError.isInstance(error) && error.code).toBe('STORE_LOCKED');
      expect(await other.exclusive({ lock: { kind: 'session', sessionId: 'another' }, timeoutMs: 0 }, async () => 'free')).toBe('free');
      expect(await other.exclusive({ lock: { kind: 'compile' }, timeoutMs: 0 }, async () => 'compile')).toBe('compile');
      release();
      expect(await first).toBe('first');
      expect(await other.exclusive({ lock: session, timeoutMs: 0 }, async () => 'then')).toBe('then');
    });

    test('what a holder commits under the session lock, the next holder reads', async () => {
      const lock = { kind: 'session', sessionId: SESSION } as const;
      await store.exclusive({ lock, timeoutMs: 1000 }, () =>
        store.commitFlush({
          sessionId: SESSION,
          progress: progress('2026-11-21T10:00:00.000Z'),
          forgetBefore: '2026-01-01T00:00:00.000Z',
          entry: { day: '2026-11-21', text: 'e\n' },
        }),
      );
      const seen = await other.exclusive({ lock, timeoutMs: 1000 }, async () => ({
        progress: await other.readProgress(SESSION),
        day: await other.readDay('2026-11-21'),
      }));
      expect(seen).toEqual({ progress: progress('2026-11-21T10:00:00.000Z'), day: '# Journal 2026-11-21\n\ne\n' });
    });
  });
}
