import { describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { ctxOf, msg, writeL0 } from './helpers.js';
import { useOfflineHome } from './offline-home.js';

/**
 * Offline (no LLM), a change said in the user's own words supersedes the memory it is about, beyond
 * the fixed slots (editor, package manager, ...), while memories that only look alike stay current.
 * One distill run per day, as the hooks run it.
 */
const { home, strata } = useOfflineHome();

async function say(day: string, content: string): Promise<void> {
  const session = `s-${day}`;
  await writeL0(home(), [msg({ session, role: 'user', content, at: `${day}T09:00:00Z`, id: `${session}-u1` })]);
  await runDistill({ ctx: ctxOf(strata()), home: home(), now: () => new Date(`${day}T12:00:00Z`) });
}

async function current(): Promise<string[]> {
  const all = await strata().list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
  return all.filter((m) => m.validTo === null).map((m) => m.text);
}

describe('offline supersession beyond the slots', () => {
  it('a dropped tool and a moved meeting replace their memories; the look-alikes stay', async () => {
    await say('2026-03-02', 'We use Datadog for all our logs.');
    await say('2026-03-03', 'Daily standup is 9:30am, please dont schedule anything for me before 9:45.');
    await say('2026-03-04', 'We use Redis for caching.');
    await say('2026-03-05', 'Our main database is Postgres.');
    expect(await current()).toHaveLength(4);

    await say('2026-06-01', 'we ripped datadog out, logs go to loki now');
    await say('2026-06-02', 'standup moved to 10:15 so the parents on the team can do school drop-off');
    await say('2026-06-03', 'we also use Valkey for the job queues now');
    await say('2026-06-04', 'Analytics events go into ClickHouse, we also keep Postgres as the main db.');

    const now = await current();
    expect(now.some((t) => /datadog/i.test(t) && !/ripped/i.test(t))).toBe(false);
    expect(now.some((t) => /loki/i.test(t))).toBe(true);
    expect(now.some((t) => /9:30/.test(t))).toBe(false);
    expect(now.some((t) => /10:15/.test(t))).toBe(true);
    expect(now.some((t) => /^We use Redis/.test(t))).toBe(true);
    expect(now.some((t) => /main database is Postgres/.test(t))).toBe(true);
  });
});
