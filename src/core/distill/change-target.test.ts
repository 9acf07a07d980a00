import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { isAdditive, isRetelling, replacedMemory, replacedNames } from './change-target.js';
import { statesUserChange } from './english-user.js';

const mem = (id: string, text: string): MemoryRecord => ({ id, text }) as MemoryRecord;
const target = (text: string, memories: MemoryRecord[]) => replacedMemory({ text, memories })?.id;

describe('replacedNames', () => {
  it('names what a change statement says was replaced', () => {
    expect(replacedNames('We ripped datadog out, logs go to loki now.')).toContain('datadog');
    expect(replacedNames("We're finally off heroku, both run on fly.io now.")).toContain('heroku');
    expect(replacedNames('We moved postgres from RDS to Neon.')).toContain('rds');
    expect(replacedNames("Chloe's off to uni so Jess is our sitter now.")).toContain('chloe');
    expect(replacedNames('We let the circleci contract lapse.')).toContain('circleci');
  });
});

describe('replacedMemory', () => {
  const others = [
    mem('train', 'The user is learning Spanish on Duolingo, 10 min a day on the train.'),
    mem('kids', 'The kids have school dinners every day.'),
    mem('trip', "We're going to the Algarve for the first two weeks of August."),
  ];

  it('replaces the memory that names what was dropped', () => {
    const logs = mem('logs', 'We send all our logs to Datadog.');
    expect(target('We ripped datadog out, logs go to loki now.', [...others, logs])).toBe('logs');
  });

  it('replaces the memory naming what a change only says was dropped ("no more sentry")', () => {
    const errors = mem('errors', 'Errors from the api go to Sentry, project is called api-prod.');
    expect(target('No more sentry, it got too pricey.', [...others, errors])).toBe('errors');
    const dog = mem('dog', "The user's dog Biscuit eats Purina Pro Plan dry food.");
    expect(target("Vet put Biscuit on a prescription kidney diet (hill's k/d), so no more purina for him.", [...others, dog])).toBe('dog');
    const glasses = mem('glasses', 'The user wears glasses, -3.5 in both eyes.');
    expect(replacedNames("We don't use jira anymore.")).toContain('jira');
    expect(target("Had laser eye surgery last month and they don't need glasses anymore!", [...others, glasses])).toBe('glasses');
    // The memory already says it was dropped: the same news again.
    const gone = mem('gone', 'No more Sentry for the api since March.');
    expect(target('No more sentry, it got too pricey.', [...others, gone])).toBeUndefined();
  });

  it('replaces the one memory about the same subject when the statement says it moved', () => {
    const standup = mem('standup', 'Daily standup is 9:30am.');
    expect(target('Standup moved to 10:15 so the parents can do school drop-off.', [...others, standup])).toBe('standup');
  });

  it('replaces the employer a statement says was left, not a memory sharing a passing word', () => {
    const phone = mem('phone', "The user's phone plan is EE, 10GB data.");
    const job = mem('job', 'The user is a junior analyst at Fenwick Insurance.');
    expect(target('The user left Fenwick, they are a data engineer at a startup called Lumora now.', [phone, job])).toBe('job');
    expect(target('Got promoted to senior analyst at fenwick.', [phone, job])).toBe('job');
  });

  it('reads "can be merged" and "before" as no change of subject', () => {
    const main = mem('main', 'Main is protected: needs passing CI before merge.');
    expect(target('In our main repo a PR needs one approval before it can be merged.', [main])).toBeUndefined();
  });

  it('never takes the noun of a set phrase ("a mano", "de baja", "by hand") for a subject', () => {
    const garden = mem('garden', 'El huerto lo riego a mano con la manguera todas las tardes cuando baja el sol.');
    expect(target('Los builds del juego los sacamos a mano desde la compu del Nacho.', [...others, garden])).toBeUndefined();
    expect(target('Ahora el server de pruebas corre en fly.io, lo de hetzner lo dimos de baja.', [...others, garden])).toBeUndefined();
    expect(replacedNames('dimos de baja heroku, ahora todo en render')).toContain('heroku');
    const hand = mem('hand', 'The user washes the dishes by hand every evening.');
    expect(target('We now deploy by hand from the release branch.', [...others, hand])).toBeUndefined();
  });

  it('replaces nothing when the shared word is in several memories', () => {
    const lunch = mem('lunch', 'The kids eat lunch at noon.');
    expect(target("We've moved the kids to packed lunches.", [...others, lunch])).toBeUndefined();
  });

  it('matches a name where a memory says what it is about before one naming it in passing', () => {
    const commute = mem('commute', 'The user takes the 7:52 train into the office, about 40 min.');
    expect(target('Commuting by e-bike these days instead of the train.', [...others, commute])).toBe('commute');
    // Named in passing by two memories and first by none: neither is the one replaced.
    const trips = mem('trips', 'Weekend trips are by car, rarely on the train.');
    expect(target('Commuting by e-bike these days instead of the train.', [...others, trips])).toBeUndefined();
  });

  it('matches a name in passing when one memory names it at all', () => {
    const flow = mem('flow', 'We do git flow: feature branches come off develop, releases are cut from it.');
    expect(target('We killed the develop branch.', [...others, flow])).toBe('flow');
  });

  it('matches a name anywhere in a memory that was itself a change', () => {
    const phone = mem('phone', 'Pixel 6 finally died, day to day android testing is on a pixel 7a now.');
    const text = "Most of the client's users are on samsung so they've made a galaxy s24 their test device instead of the 7a.";
    expect(target(text, [...others, phone])).toBe('phone');
  });

  it('never replaces on a statement that adds a second thing or says the same again', () => {
    const redis = mem('redis', 'We use Redis for caching.');
    expect(isAdditive('We also use Valkey for queues now.')).toBe(true);
    expect(target('We also use Valkey for queues now.', [redis])).toBeUndefined();
    expect(isAdditive('The thursday pitch got too expensive.')).toBe(false);
    const tabs = mem('tabs', 'The user prefers tabs over spaces in Python.');
    expect(target('The user prefers tabs instead of spaces in Python!', [tabs])).toBeUndefined();
  });

  it('leaves a look-alike without a change word alone', () => {
    const db = mem('db', 'Our main database is Postgres.');
    expect(target('Analytics events go into ClickHouse, separate from the main db.', [db])).toBeUndefined();
  });
});

describe('isRetelling', () => {
  const stored = mem('m', 'Db migrations are run with dbmate, files live in db/migrations.');
  it('is a paraphrase close in meaning with shared words', () => {
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.87 })).toBe(true);
  });
  it('is not a retelling when far in meaning, changed or found by text only', () => {
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.6 })).toBe(false);
    expect(isRetelling('We use sqitch for migrations now.', { record: stored, similarity: 0.85 })).toBe(false);
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored })).toBe(false);
    // Marked by the speaker as said before: looser closeness, one shared word, found by text too.
    const marked = { marked: true };
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored, similarity: 0.6 }, marked)).toBe(true);
    expect(isRetelling("We use dbmate for migrations, they're in db/migrations.", { record: stored }, marked)).toBe(true);
    expect(isRetelling('We use sqitch for migrations now.', { record: stored, similarity: 0.85 }, marked)).toBe(false);
  });
});

describe('statesUserChange: changes said the way people say them', () => {
  it.each([
    'fyi: pnpm now.',
    "we're finally off heroku, api and worker both run on fly.io now",
    'ripped jest out this week, everything runs on vitest now',
    'we killed the develop branch',
    'we changed on-call to 2-week shifts with handoff wednesday 11am',
    'swapped eslint and prettier for biome',
    'the 1password env vault is deleted',
    'pickup is 2:45 now',
  ])('%s', (text) => expect(statesUserChange(text)).toBe(true));

  it.each(['it works now', 'the tests pass now', 'wrote 2 tests, both green, pushing now', "i'm done now", 'i just fixed the header'])(
    'not: %s',
    (text) => expect(statesUserChange(text)).toBe(false),
  );
});

describe('Spanish changes', () => {
  const ci = mem('ci', 'Usamos Jenkins para el CI.');
  const repo = mem('repo', 'El repo está en GitLab.');
  const daily = mem('daily', 'La daily es a las 9:30.');
  const host = mem('host', 'La api está en Heroku.');

  it('names what was dropped, with or without accents', () => {
    expect(replacedNames('ya no usamos Jenkins, ahora todo corre en GitHub Actions')).toContain('jenkins');
    expect(replacedNames('nos pasamos de Heroku a Render')).toContain('heroku');
    expect(replacedNames('cambiamos Slack por Teams')).toContain('slack');
    expect(replacedNames('el excel quedó atrás, ahora es todo Notion')).toContain('excel');
  });

  it('replaces the memory it is about, and only that one', () => {
    expect(target('ya no usamos jenkins, ahora todo corre en github actions', [repo, daily, ci, host])).toBe('ci');
    expect(target('nos pasamos de Heroku a Render', [repo, daily, ci, host])).toBe('host');
    expect(target('la daily se movió a las 10', [repo, ci, host, daily])).toBe('daily');
    expect(target('también usamos GitHub Actions para los deploys', [repo, daily, ci, host])).toBeUndefined();
    expect(isAdditive('además tenemos otro repo para la app')).toBe(true);
  });

  it('names what was sold, thrown out, closed or is "fuera"', () => {
    const car = mem('car', 'Tengo un Corolla 2012 gris.');
    const db = mem('db', 'La base de datos del ERP es MySQL 5.7.');
    expect(target('vendí el corolla y me compré un eléctrico usado, un nissan leaf', [repo, db, car])).toBe('car');
    expect(target('ya terminamos la migración a postgres 16, mysql fuera', [repo, car, db])).toBe('db');
    expect(replacedNames('tiramos black, flake8 e isort, ahora ruff hace todo')).toContain('black');
  });

  it('reads a drop said with its subject, a switch-off and a change verb in any person', () => {
    const swim = mem('swim', 'Lía hace judo los jueves en el polideportivo.');
    const books = mem('books', 'Los libros de cuentas viven en un SQL Server local.');
    const flow = mem('flow', 'Seguimos gitflow: las ramas feature salen de develop.');
    // Nothing new beside the name dropped: still news, since the memory never said it was dropped.
    expect(target('lía dejó judo', [repo, swim, daily])).toBe('swim');
    expect(target('los libros de cuentas ya están en postgres, el sql server se apagó en marzo', [repo, daily, books])).toBe('books');
    expect(target('se acabó develop', [repo, daily, flow])).toBe('flow');
    expect(target('desinstalamos jenkins del servidor', [repo, daily, ci])).toBe('ci');
    const boss = mem('boss', 'Mi jefa directa es Nuria, la de finanzas.');
    expect(target('nuria ya no es mi jefa', [repo, daily, boss])).toBe('boss');
  });

  it('reads "otro" and "another" after a preposition as where or why, not a second thing', () => {
    const port = mem('port', 'La api de pedidos corre en el puerto 4000.');
    expect(target('cambié la api de pedidos al 4100 porque chocaba con otro proceso', [repo, daily, port])).toBe('port');
    const team = mem('team', 'Aisha is on the billing squad.');
    expect(target('Aisha moved to another squad in Lisbon.', [repo, team])).toBe('team');
    expect(isAdditive('tenemos otro repo para la app')).toBe(true);
    expect(isAdditive('We got another cat.')).toBe(true);
  });

  it('finds the memory by the old value named beside the change when the change itself names none', () => {
    const editor = mem('editor', 'Uso webstorm para todo, tanto el front como los scripts.');
    const api = mem('api', 'El backend local corre en el puerto 8080.');
    const worker = mem('worker', 'El backend de pagos tiene un worker de colas aparte.');
    expect(target('me he pasado a zed, webstorm me comía la batería', [repo, daily, editor])).toBe('editor');
    // Two memories share "backend"; only one names the old port.
    expect(target('moví el backend al 3001 xq el 8080 me chocaba con otro servicio', [worker, api, repo])).toBe('api');
  });
});
