import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DistillScheduler, runDistill, type DistillReport } from '../../src/core/distill/index.js';
import type { Strata } from '../../src/strata.js';
import { withFileLock } from '../../src/util/file-lock.js';
import { ctxOf, msg, openStrata, removeDir, tempDir, writeL0 } from './helpers.js';

let home: string;
let strata: Strata;
beforeEach(async () => {
  home = await tempDir();
  strata = await openStrata(home);
});
afterEach(async () => {
  await strata.close();
  await removeDir(home);
});

const statement = (i: number) =>
  msg({
    session: `s${i}`,
    role: 'user',
    content: `I always use pnpm workspaces in project ${i}.`,
    at: '2026-11-01T09:00:00Z',
    id: `s${i}`,
  });

function scheduler(options: { everyMessages?: number; idleMs?: number; now?: () => Date; pollMs?: number }) {
  const reports: DistillReport[] = [];
  const errors: unknown[] = [];
  const s = new DistillScheduler({
    home,
    run: () => runDistill({ ctx: ctxOf(strata), home }),
    log: ctxOf(strata).l0,
    onReport: (r) => reports.push(r),
    onError: (e) => errors.push(e),
    ...options,
  });
  return { s, reports, errors };
}

describe('distill scheduler', () => {
  it('runs once enough new messages are in the log (timer-driven), then stops cleanly', async () => {
    const { s, reports, errors } = scheduler({ everyMessages: 3, pollMs: 20 });
    await writeL0(home, [statement(1), statement(2), statement(3)]);
    s.start();
    for (let i = 0; i < 200 && reports.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    await s.stop();
    expect(errors).toEqual([]);
    expect(reports[0]?.decisions.create).toBe(3);
    expect(await strata.count({ scopes: ['agent:main'] })).toBe(3);
  });

  it('waits for the idle timeout when only a few messages are pending', async () => {
    let clock = Date.parse('2026-11-21T10:00:00Z');
    const { s, reports } = scheduler({ everyMessages: 50, idleMs: 60_000, now: () => new Date(clock) });
    await writeL0(home, [statement(1)]);
    await s.tick();
    expect(reports).toHaveLength(0);
    clock += 30_000;
    await s.tick();
    expect(reports).toHaveLength(0);
    clock += 31_000;
    await s.tick();
    expect(reports).toHaveLength(1);
    expect(await strata.count({ scopes: ['agent:main'] })).toBe(1);
  });

  it('skips a tick while another process holds the distill lock, and runs on a later one', async () => {
    const { s, reports, errors } = scheduler({ everyMessages: 1 });
    await writeL0(home, [statement(1)]);
    await withFileLock({ path: join(home, 'distill', '.lock') }, async () => {
      await s.tick();
    });
    expect(reports).toHaveLength(0);
    expect(errors).toEqual([]);
    await s.tick();
    expect(reports).toHaveLength(1);
  });
});
