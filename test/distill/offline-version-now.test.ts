import { describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { ctxOf, msg, writeL0 } from './helpers.js';
import { useOfflineHome } from './offline-home.js';

/**
 * Offline (no LLM), a version told with "right now" or "atm" is learned, and a later bump replaces it:
 * one current memory, its predecessor in the past. One distill run per day, as the hooks run it.
 */
const { home, strata } = useOfflineHome();

async function say(day: string, content: string): Promise<void> {
  const session = `s-${day}`;
  await writeL0(home(), [msg({ session, role: 'user', content, at: `${day}T09:00:00Z`, id: `${session}-u1` })]);
  await runDistill({ ctx: ctxOf(strata()), home: home(), now: () => new Date(`${day}T12:00:00Z`) });
}

async function memories(): Promise<Array<{ text: string; current: boolean }>> {
  const all = await strata().list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
  return all.map((m) => ({ text: m.text, current: m.validTo === null }));
}

describe('a version said to hold at present', () => {
  it('is learned, and a later bump supersedes it', async () => {
    await say('2026-02-02', 'the kiosk app is on flutter 3.13 right now');
    await say('2026-02-03', 'We use Sentry for crash reports.');
    expect((await memories()).filter((m) => /flutter 3\.13/.test(m.text))).toEqual([
      { text: 'The kiosk app is on flutter 3.13.', current: true },
    ]);

    await say('2026-05-11', 'bumped the kiosk app to flutter 3.24 last week');
    const all = await memories();
    expect(all.filter((m) => m.current && /flutter/i.test(m.text)).map((m) => m.text)).toEqual([expect.stringMatching(/flutter 3\.24/)]);
    expect(all.find((m) => /flutter 3\.13/.test(m.text))?.current).toBe(false);
    expect(all.some((m) => m.current && /Sentry/.test(m.text))).toBe(true);
  });
});
