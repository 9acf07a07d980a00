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

describe('offline supersession of a thing told twice', () => {
  it('a dropped tool ends every current memory about it, the retelling stored on another day too', async () => {
    await say('2026-04-01', 'The node services log with winston.');
    await say('2026-04-03', "since we're a winston shop, structured logs come out through winston transports");
    await say('2026-04-04', 'We use Redis for caching.');
    const told = (await current()).filter((t) => /winston/i.test(t));
    expect(told).toHaveLength(2);

    await say('2026-05-10', "winston's gone, we replaced it with pino everywhere for perf");
    const now = await current();
    expect(now.filter((t) => /winston/i.test(t) && !/pino/i.test(t))).toEqual([]);
    expect(now.filter((t) => /pino/i.test(t))).toHaveLength(1);
    expect(now.some((t) => /^We use Redis/.test(t))).toBe(true);
    const all = await strata().list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
    const successor = all.find((m) => /pino/i.test(m.text))!;
    const ended = all.filter((m) => /winston/i.test(m.text) && !/pino/i.test(m.text));
    expect(ended.map((m) => m.supersededBy)).toEqual([successor.id, successor.id]);
    expect(ended.map((m) => m.validTo)).toEqual([successor.validFrom, successor.validFrom]);
  });
});

describe('offline supersession within one session', () => {
  // A hook distils a session once, at its end: a correction said later in it must win there too.
  it('a change said later in the same session replaces what was said earlier in it', async () => {
    await say('2026-03-01', 'We use Redis for caching.');
    const session = 's-one';
    const lines = [
      'Our staging database listens on port 5433.',
      'I use Vim for everything.',
      'We deploy the api to Heroku.',
      'ok now the flaky test, can you look at it',
      'actually staging moved to port 5434 last week',
      'I switched to Helix, Vim is history for me.',
      "we're finally off heroku, the api deploys to fly.io now",
    ];
    await writeL0(
      home(),
      lines.map((content, i) => msg({ session, role: 'user', content, at: `2026-03-09T09:0${i}:00Z`, id: `${session}-u${i}` })),
    );
    await runDistill({ ctx: ctxOf(strata()), home: home(), now: () => new Date('2026-03-09T12:00:00Z') });

    const all = await strata().list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 100 });
    const now = all.filter((m) => m.validTo === null).map((m) => m.text);
    expect(now.filter((t) => /5433/.test(t))).toEqual([]);
    expect(now.filter((t) => /5434/.test(t))).toHaveLength(1);
    expect(now.filter((t) => /\bvim\b/i.test(t) && !/helix/i.test(t))).toEqual([]);
    expect(now.filter((t) => /helix/i.test(t))).toHaveLength(1);
    expect(now.filter((t) => /heroku/i.test(t) && !/fly\.io/i.test(t))).toEqual([]);
    expect(now.some((t) => /^We use Redis/.test(t))).toBe(true);

    // The earlier statement is kept as history, closed when its successor was said, and linked to it.
    const old = all.find((m) => /5433/.test(m.text))!;
    const successor = all.find((m) => m.id === old.supersededBy)!;
    expect(successor.text).toMatch(/5434/);
    expect(old.validTo).toBe(successor.validFrom);
    expect(Date.parse(old.validFrom)).toBeLessThan(Date.parse(successor.validFrom));
    const history = await strata().history({ id: old.id });
    expect(history.map((h) => h.action)).toEqual(expect.arrayContaining(['create', 'supersede']));
  });
});

describe('offline, a fact the user says they are repeating', () => {
  it('"as I said" / "reminder" / "still" skip the retelling of a stored memory', async () => {
    await say('2026-02-01', 'we use 2-space indentation everywhere, no tabs');
    await say('2026-02-02', 'All our prod infra is in eu-west-1.');
    await say('2026-02-03', 'the backend is hosted on heroku');
    await say('2026-02-04', 'We use Redis for caching.');
    await say('2026-02-20', 'reminder our style is 2 spaces, never tabs');
    await say('2026-02-21', 'as I said, everything we run is in the ireland region (eu-west-1), so pick that in examples');
    await say('2026-02-22', "we're still on heroku for the backend, dynos and all");
    const now = await current();
    expect(now.filter((t) => /2.space|tabs/i.test(t))).toHaveLength(1);
    expect(now.filter((t) => /eu-west-1/i.test(t))).toHaveLength(1);
    expect(now.filter((t) => /heroku/i.test(t))).toHaveLength(1);
    expect(now).toHaveLength(4);
  });

  it('a marked statement about something new is still stored', async () => {
    await say('2026-02-01', 'We use Redis for caching.');
    await say('2026-02-02', 'as I said, backend is a two person show, me and raj');
    expect(await current()).toEqual(['We use Redis for caching.', 'Backend is a two person show, me and raj.']);
  });
});

describe('offline, a plain statement with no trigger phrase', () => {
  it('is learned, and one sharing a word with it is a second fact, not a retelling', async () => {
    await say('2026-02-01', 'internal service-to-service calls use gRPC');
    await say('2026-02-02', 'my salary goes into my monzo account');
    expect(await current()).toEqual(['Internal service-to-service calls use gRPC.', "The user's salary goes into their monzo account."]);
    // Without vectors nothing says how close the two are: the shared "account" must not drop the pension.
    await say('2026-02-20', 'my pension pot sits in an aviva account');
    await say('2026-02-21', 'the staging cluster has three nodes');
    const now = await current();
    expect(now).toContain("The user's pension pot sits in an aviva account.");
    expect(now).toContain('The staging cluster has three nodes.');
    expect(now).toHaveLength(4);
  });
});

describe('offline supersession of a change told in the sentence before the stored one', () => {
  it('keeps the dropped thing in front of what replaced it, so its memory ends', async () => {
    await say('2026-02-02', 'Design specs for our apps come from Avocode.');
    await say('2026-02-03', 'We track time in Harvest.');
    await say('2026-02-04', 'Our repos are hosted on gitlab.');
    expect(await current()).toHaveLength(3);

    await say('2026-07-01', 'avocode licence expired. the specs all live in penpot now');
    await say('2026-07-02', 'we axed harvest. hours get logged in toggl from now on');
    const now = await current();
    expect(now.filter((t) => /avocode/i.test(t))).toEqual(['Avocode licence expired. The specs all live in penpot now.']);
    expect(now.filter((t) => /harvest/i.test(t))).toEqual(['We axed harvest. Hours get logged in toggl from now on.']);
    expect(now).toContain('Our repos are hosted on gitlab.');
  });
});
