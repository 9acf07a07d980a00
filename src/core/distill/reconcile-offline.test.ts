import { describe, expect, it } from 'vitest';
import { decideOffline, type CurrentItem } from './reconcile-offline.js';
import { slotsOf } from './slots.js';

const item = (id: string, text: string, since = 0): CurrentItem => ({ text, since, ref: { id } });
const decide = (text: string, current: CurrentItem[], similarity?: number) =>
  decideOffline({
    text,
    statedAt: 100,
    current,
    similar: similarity === undefined ? [] : current.map((c) => ({ item: c, similarity })),
    nearDuplicateThreshold: 0.92,
  });

describe('offline reconciliation by rules', () => {
  it('a change placed nowhere in particular replaces the choice it changes, whatever else either says', () => {
    const editor = item('editor', "The user's editor is sublime text, so keybinding tips should be for that.");
    expect(decide('Finally caved and switched to zed.', [editor])).toMatchObject({ kind: 'supersede', target: { id: 'editor' } });
  });

  it('two choices in different places stay two facts', () => {
    const cache = item('cache', 'We use Redis for caching.');
    expect(decide('Our main database is Postgres.', [cache]).kind).toBe('create');
  });

  it('a second thing told close to the first is created beside it, not as a change', () => {
    const db = item('db', 'The main app database is postgres.');
    const verdict = decide('The analytics warehouse is on clickhouse, separate from the app db.', [db], 0.95);
    expect(verdict.kind).toBe('create');
  });
});

describe('a tool changed when one memory holds its kind', () => {
  it('replaces that memory though the two share no word or place it differently', () => {
    const apm = item('apm', 'Our metrics and APM are in New Relic.');
    const verdict = decide('Finished the move to datadog, new relic dashboards are read-only till they expire.', [apm]);
    expect(verdict).toMatchObject({ kind: 'supersede', target: { id: 'apm' } });
    const ci = item('ci', 'CI for the monorepo runs on CircleCI.');
    expect(decide("Circle config is deleted, we're fully on github actions now.", [ci])).toMatchObject({ target: { id: 'ci' } });
    const errors = item('errors', 'All our crash reporting goes to sentry, every app.');
    expect(decide("Agency-wide we've swapped to firebase crashlytics, the bill got silly.", [errors])).toMatchObject({
      target: { id: 'errors' },
    });
  });

  it('knows the mobile CI services, more APMs and error trackers by name', () => {
    const pipeline = item('pipeline', 'Our iOS pipeline is on bitrise.');
    expect(decide('Codemagic does all the mobile builds now.', [pipeline])).toMatchObject({
      kind: 'supersede',
      target: { id: 'pipeline' },
    });
    const release = item('release', 'Release builds run on appveyor.');
    expect(decide("We're fully on tekton now.", [release])).toMatchObject({ kind: 'supersede', target: { id: 'release' } });
    const app = item('app', 'El CI de la app es bitrise.');
    expect(decide('Ahora usamos codemagic.', [app])).toMatchObject({ kind: 'supersede', target: { id: 'app' } });
    const errors = item('errors', 'JS exceptions are sent to airbrake.');
    expect(decide('We use glitchtip now.', [errors])).toMatchObject({ kind: 'supersede', target: { id: 'errors' } });
    const traces = item('traces', 'Request traces are kept in appsignal.');
    expect(decide('Everything uses skywalking now.', [traces])).toMatchObject({ kind: 'supersede', target: { id: 'traces' } });
  });

  it('takes the tool a statement drops for the old choice, not the new one, and the drop for the change', () => {
    const editor = item('editor', 'The user writes all their code in Sublime Text.');
    expect(decide('The user went all in on helix, uninstalled sublime text over the holidays.', [editor])).toMatchObject({
      kind: 'supersede',
      target: { id: 'editor' },
      reason: 'editor changed to helix',
    });
    const errors = item('errors', 'Client-side exceptions are collected in rollbar.');
    expect(decide('Rolled honeybadger out to every client app and ripped rollbar out of the bundle.', [errors])).toMatchObject({
      kind: 'supersede',
      target: { id: 'errors' },
    });
  });

  it('a statement naming two kinds of tool changes each', () => {
    const os = item('os', 'The user develops on windows with wsl2 (ubuntu).');
    const verdict = decide('Work gave me a macbook so I am on macos now, brew instead of apt.', [os]);
    expect(verdict).toMatchObject({ kind: 'supersede', target: { id: 'os' } });
  });

  it('leaves two memories of the kind, a second tool, no change word, a database and a CI badge alone', () => {
    const backend = item('backend', 'Backend metrics are in New Relic.');
    const rum = item('rum', 'Frontend RUM is in Dynatrace.');
    expect(decide('Finished the move to datadog, the dashboards are read-only.', [backend, rum]).kind).toBe('create');
    const unit = item('unit', 'Unit tests run on CircleCI.');
    expect(decide('We also run some jobs on github actions now.', [unit]).kind).toBe('create');
    expect(decide('Github actions runs the release workflow.', [unit]).kind).toBe('create');
    // Databases are often several at once: moving one thing to sqlite ends no other database.
    const db = item('db', "The physio app's backend db is postgres.");
    expect(decide('Sheets was too slow so they moved the survey data into a sqlite file now.', [db]).kind).toBe('create');
    // A CI badge is no CI tool: only a tool named makes the slot.
    expect(slotsOf('The CI badge is green.')).toEqual([]);
    expect(slotsOf('CI runs on Buildkite.')).toEqual([{ slot: 'ci', value: 'buildkite' }]);
  });
});

describe('where the person lives and whom they report to: one at a time', () => {
  it('a move or a new manager replaces the old one though the two share no word', () => {
    const home = item('home', 'Vivo en Rosario, cerca del parque Independencia.');
    expect(decide('Me mudé a Córdoba el mes pasado.', [home])).toMatchObject({ kind: 'supersede', target: { id: 'home' } });
    const boss = item('boss', "The user's manager is Priya, head of data.");
    expect(decide('After the reorg they report to Tomás now.', [boss])).toMatchObject({ kind: 'supersede', target: { id: 'boss' } });
    expect(decide('Ahora mi jefe directo es Andrés.', [item('jefa', 'Mi jefa es la ingeniera Paula Ruiz.')])).toMatchObject({
      kind: 'supersede',
    });
  });

  it("someone else's home, the same home again or a team moving its tools are no move", () => {
    const home = item('home', 'Vivo en Rosario, cerca del parque Independencia.');
    expect(decide('Mi hermana vive en Madrid.', [home]).kind).toBe('create');
    expect(decide('Vivo en Rosario desde 2019.', [home])).toMatchObject({ kind: 'skip', target: { id: 'home' } });
    expect(decide('Nos mudamos a linear, jira ya fue.', [home]).kind).not.toBe('supersede');
    // Two plain statements of a home, with nothing saying it changed, may be a correction or two people's.
    expect(decide('Vivo en Córdoba, cerca del centro.', [home]).kind).not.toBe('supersede');
  });
});

describe('a statement the speaker marks as said before', () => {
  const infra = item('infra', 'All our prod infra is in eu-west-1.');
  const retold = 'Everything we run is in the ireland region (eu-west-1), so pick that in examples.';
  const decideMarked = (text: string, current: CurrentItem[], similarity: number, restated = true) =>
    decideOffline({
      text,
      statedAt: 100,
      current,
      similar: current.map((c) => ({ item: c, similarity })),
      nearDuplicateThreshold: 0.92,
      restated,
    });

  it('is skipped as a retelling of the close memory it shares a word with', () => {
    expect(decideMarked(retold, [infra], 0.62)).toMatchObject({ kind: 'skip', target: { id: 'infra' } });
    // Unmarked, the same paraphrase is too far from the memory to be called the same fact.
    expect(decideMarked(retold, [infra], 0.62, false).kind).toBe('create');
  });

  it('is created when no close memory shares a word, or when it says another value', () => {
    expect(decideMarked('We still deploy with Helm charts.', [infra], 0.62).kind).toBe('create');
    expect(decideMarked(retold, [infra], 0.3).kind).toBe('create');
    const redis = item('redis', 'Redis runs on port 6380 in our docker-compose.');
    expect(decideMarked('The compose redis is still on 6381.', [redis], 0.8).kind).not.toBe('skip');
  });
});

describe('a recurring thing moved to another day or hour', () => {
  it('replaces the one memory of that thing beside another memory sharing a word with the change', () => {
    const dinner = item('dinner', 'Dinner for the guests is 7 to half 8.');
    const hikers = item('hikers', 'The hikers usually book the family room.');
    const verdict = decide("We're doing dinner 6:30 to 8 now, the hikers all want to eat early.", [dinner, hikers]);
    expect(verdict).toMatchObject({ kind: 'supersede', target: { id: 'dinner' } });
    const piano = item('piano', "Noor's piano lessons are thursdays at 4pm.");
    const noor = item('noor', 'Noor is 9 and in year 4.');
    expect(decide("Noor's piano got moved to friday 5pm.", [piano, noor])).toMatchObject({ kind: 'supersede', target: { id: 'piano' } });
  });
});
