import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/errors/index.js';
import type { DistillProgressV1 } from '../../src/spec/distill-progress.js';

/**
 * The behaviour every DistillProgressV1 backend must show. `create` makes fresh, empty progress;
 * `open` another handle on the same progress (another process, in effect).
 */
export interface DistillProgressContractOptions {
  name: string;
  create: () => Promise<{ progress: DistillProgressV1; open: () => Promise<DistillProgressV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function runDistillProgressContract(options: DistillProgressContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`DistillProgressV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<DistillProgressContractOptions['create']>>;
    let progress: DistillProgressV1;
    beforeEach(async () => {
      ctx = await options.create();
      progress = ctx.progress;
    });
    afterEach(async () => ctx.cleanup());

    test('is versioned and states its capabilities', async () => {
      expect(progress.specificationVersion).toBe('v1');
      expect(typeof progress.provider).toBe('string');
      expect(typeof progress.capabilities.shared).toBe('boolean');
      expect(typeof progress.capabilities.lockEndsWithHolder).toBe('boolean');
    });

    test('starts empty', async () => {
      expect(await progress.readCursor()).toBeUndefined();
      expect(await progress.readBudget()).toBeUndefined();
    });

    test('keeps the last cursor and budget written, seen by another handle', async () => {
      await progress.writeCursor({ state: { version: 2, after: 'p1', done: ['a'] } });
      await progress.writeCursor({ state: { version: 2, after: 'p2', done: ['b', 'c'] } });
      await progress.writeBudget({ window: { windowStart: '2026-01-01T00:00:00.000Z', calls: 3, tokens: 40 } });
      const other = await ctx.open();
      try {
        expect(await other.readCursor()).toEqual({ version: 2, after: 'p2', done: ['b', 'c'] });
        expect(await other.readBudget()).toEqual({ windowStart: '2026-01-01T00:00:00.000Z', calls: 3, tokens: 40 });
      } finally {
        await other.close();
      }
    });

    test('a cursor without a position (nothing distilled yet, keys done) round-trips', async () => {
      await progress.writeCursor({ state: { version: 2, done: ['x'] } });
      expect(await progress.readCursor()).toEqual({ version: 2, done: ['x'] });
    });

    test('exclusive returns what the function returns and passes its error on', async () => {
      expect(await progress.exclusive({}, async () => 42)).toBe(42);
      await expect(progress.exclusive({}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      // The lock was released after the failure.
      expect(await progress.exclusive({}, async () => 'again')).toBe('again');
    });

    test('a second holder fails fast with STORE_LOCKED while the first runs, and gets the lock after', async () => {
      const other = await ctx.open();
      try {
        let release!: () => void;
        let entered!: () => void;
        const inside = new Promise<void>((r) => (entered = r));
        const first = progress.exclusive({}, () => {
          entered();
          return new Promise<string>((r) => (release = () => r('first')));
        });
        await inside;
        const error = await other.exclusive({ timeoutMs: 0 }, async () => 'second').catch((e: unknown) => e);
        expect(StrataError.isInstance(error) && error.code).toBe('STORE_LOCKED');
        expect(StrataError.isInstance(error) && error.isRetryable).toBe(true);
        release();
        expect(await first).toBe('first');
        expect(await other.exclusive({ timeoutMs: 0 }, async () => 'second')).toBe('second');
      } finally {
        await other.close();
      }
    });

    test('a waiting holder gets the lock once the first releases it, never both at once', async () => {
      const other = await ctx.open();
      try {
        let inside = 0;
        let most = 0;
        const run = (p: DistillProgressV1, ms: number) =>
          p.exclusive({ timeoutMs: 10_000 }, async () => {
            most = Math.max(most, ++inside);
            await sleep(ms);
            inside--;
          });
        await Promise.all([run(progress, 150), run(other, 10), run(progress, 10), run(other, 150)]);
        expect(most).toBe(1);
      } finally {
        await other.close();
      }
    });

    test('writes made inside exclusive are seen by the next holder', async () => {
      const other = await ctx.open();
      try {
        await progress.exclusive({}, async () => {
          await progress.writeCursor({ state: { version: 2, after: 'p9', done: [] } });
        });
        expect(await other.exclusive({}, () => other.readCursor())).toEqual({ version: 2, after: 'p9', done: [] });
      } finally {
        await other.close();
      }
    });
  });
}
