import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { captureByRules } from './rules.js';

/**
 * What offline capture learns from an assistant's own words (rule-patterns.ts PROJECT_LESSONS): a
 * named thing's limitation, a need told with what happens without it, what every new part must do,
 * and the project's conventions. The model path is switched off here (a ceiling no probability
 * reaches), so each case shows what the triggers alone do; junk-model.test.ts covers the model.
 */
const off = {
  model: {
    version: 1 as const,
    trainedOn: { files: [], rows: 0, keep: 0, c: 4, minDocumentFrequency: 2 },
    intercept: 0,
    terms: { words: {}, chars: {} },
  },
  keepCeiling: 2,
};
const learned = (text: string) => captureByRules({ text, role: 'assistant', proseModel: off }).map((c) => [c.trigger, c.category, c.text]);

describe('lessons an assistant states about the project, offline', () => {
  it('learns what a named tool or part cannot do', () => {
    expect(learned("Mosquitto's bridge doesn't forward retained messages on reconnect, so the dashboards show stale values.")).toEqual([
      ['limitation', 'lesson', "Mosquitto's bridge doesn't forward retained messages on reconnect, so the dashboards show stale values."],
    ]);
    expect(learned('The nightly export no longer includes archived projects since the 3.2 release.')).toHaveLength(1);
    expect(learned('`pg_dump --jobs` cannot be combined with the plain-text output format.')).toHaveLength(1);
  });

  it('learns a need told with its cost, a rule for every new part, and a convention', () => {
    expect(
      learned('The CDN purge has to run after every deploy of the marketing site, otherwise visitors get the old bundle for a day.'),
    ).toEqual([
      [
        'needs-or-else',
        'lesson',
        'The CDN purge has to run after every deploy of the marketing site, otherwise visitors get the old bundle for a day.',
      ],
    ]);
    expect(learned('Every new cron job needs an entry in `ops/schedules.yaml` so the on-call alerts know about it.')[0]?.[0]).toBe(
      'every-new',
    );
    expect(learned('The convention in this repo is that feature flags are named after the ticket that adds them.')[0]?.[0]).toBe(
      'convention',
    );
  });

  it('does not take the agent, the user or what was just looked at for the subject', () => {
    expect(learned("I can't reproduce it from here, the staging logs are gone.")).toEqual([]);
    expect(learned("You won't see a difference unless you change the accent colour.")).toEqual([]);
    expect(learned("Since the SDK doesn't expose a retry hook, let's go with option 2 and wrap the client.")).toEqual([]);
    expect(learned("That doesn't support the new format either.")).toEqual([]);
    expect(learned('Every test passes now.')).toEqual([]);
    expect(learned("However, the SDK doesn't expose a retry hook in the browser build.")).toEqual([]);
  });

  it('reads "the root cause is X, not Y" and a guessed cause as this bug’s diagnosis, not a lesson', () => {
    expect(admit({ text: 'The root cause is the stale lockfile, not the registry.', source: 'assistant' })).toMatchObject({
      admitted: false,
      reason: 'context-dependent',
    });
    expect(
      admit({ text: 'The root cause is probably the flaky disk, but the cable could also be it.', source: 'assistant' }).admitted,
    ).toBe(false);
    expect(learned('The root cause was that the proxy strips the Authorization header on redirects.')).toHaveLength(1);
    expect(learned('The root cause was the proxy stripping the Authorization header on redirects.')).toHaveLength(1);
  });

  it('takes the agent’s guess for no fact, in its prose, a summary, or a memory only the agent is cited for', () => {
    const guesses = [
      'The queue stalls every night at 2am, so it is probably the backup job holding the lock.',
      'The old mapping may have been reset when the router updated its firmware.',
      'Renewals seem to fail because the DNS provider rate-limits the challenge.',
      'The mirror is most likely serving a stale index.',
    ];
    for (const text of guesses) {
      expect(admit({ text, source: 'assistant' })).toMatchObject({ admitted: false, reason: 'passing-state', detail: 'guess' });
      expect(admit({ text, source: 'summary' })).toMatchObject({ admitted: false, reason: 'passing-state' });
    }
    const evidence = { messages: [{ id: 'a1', role: 'assistant', text: guesses[3]! }], cited: ['a1'] };
    expect(admit({ text: 'The package mirror is most likely serving a stale index.', source: 'llm', evidence }).admitted).toBe(false);
    // A "don't" in a description makes no rule of a guess.
    const described = "The thumbnails render but the previews don't, which suggests the CDN might be stripping the range header.";
    expect(admit({ text: described, source: 'assistant' })).toMatchObject({ admitted: false, detail: 'guess' });
    // A rule said with a hedge stays a rule; the same fact stated plainly stands.
    expect(admit({ text: 'Never log webhook payloads, they may contain customer emails.', source: 'assistant' }).admitted).toBe(true);
    expect(admit({ text: 'The mirror serves a stale index because its cron sync is disabled.', source: 'assistant' }).admitted).toBe(true);
  });

  it('stores what the agent says after agreeing with a correction without the agreement, and the agreement alone as nothing', () => {
    const echo = "You're absolutely right - the export endpoint only accepts ISO dates, so unix timestamps are rejected.";
    expect(learned(echo).map(([, , text]) => text)).toEqual([
      'The export endpoint only accepts ISO dates, so unix timestamps are rejected.',
    ]);
    expect(learned('Good catch: the nightly export never includes archived projects.').map(([, , text]) => text)).toEqual([
      'The nightly export never includes archived projects.',
    ]);
    for (const text of ["You're right!", 'Good point.', "You're right, let me trace the export again."])
      expect(admit({ text, source: 'assistant' }).admitted).toBe(false);
    // "right to" is no agreement preamble: nothing is cut from the sentence.
    expect(admit({ text: "You're right to ask about the retry limit.", source: 'assistant' }).admitted).toBe(false);
  });
});
